// `pnpm --filter @mcpkit/app-mcp-app build:views`: writes each view as one HTML file to dist/views/.
import { mkdir, writeFile } from 'node:fs/promises';
import { buildViews } from './build-views';

const out = new URL('../dist/views/', import.meta.url);
await mkdir(out, { recursive: true });
for (const [name, html] of Object.entries(await buildViews())) {
  await writeFile(new URL(`${name}.html`, out), html);
  console.log(`dist/views/${name}.html: ${html.length} bytes`);
}
