// The host page: public/index.html and src/host-page.ts bundled by esbuild at start (a sample needs no build step).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HTML = fileURLToPath(new URL('../public/index.html', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./host-page.ts', import.meta.url));

/**
 * Bundles a browser script (workspace packages from their TypeScript source, through `@mcpkit/source`).
 *
 * @example
 * const code = await bundleBrowserScript('/path/to/page.ts');
 */
export async function bundleBrowserScript(entry: string): Promise<string> {
  const output = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@mcpkit/source'],
    write: false,
    logLevel: 'silent',
  });
  return output.outputFiles[0]?.text ?? '';
}

/** The host page's HTML and script. */
export async function bundleHostPage(): Promise<{ html: string; script: string }> {
  const [html, script] = await Promise.all([readFile(HTML, 'utf8'), bundleBrowserScript(SCRIPT)]);
  return { html, script };
}
