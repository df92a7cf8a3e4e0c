// `npx pnpm --filter @mcpkit/readme-check check`: the README check on the terminal, for someone editing a README.
// It checks against the built packages: run `npm run build` first.
import { join } from 'node:path';
import { describeBlock } from './blocks';
import { checkReadmes, keyOf } from './check';

const root = join(import.meta.dirname, '..', '..', '..');
const report = checkReadmes({ root, workDir: join(import.meta.dirname, '..', '.examples') });
let failed = 0;
for (const block of report.blocks) {
  const problems = report.problems.get(keyOf(block));
  if (problems === undefined) continue;
  failed++;
  console.log(`\n✗ ${describeBlock(block)}\n  ${problems.join('\n').split('\n').join('\n  ')}`);
}
console.log(
  `\n[readme-check] ${report.blocks.length} blocks: ${report.compiled} compiled, ${report.ran} ran, ${failed} with problems`,
);
process.exit(failed === 0 ? 0 : 1);
