// Every code block of every README is checked (see src/blocks.ts for the info-string flags): one test per block, named
// after its README, position and line, failing with why. The packages are built first (turbo's cache makes that
// instant when nothing changed), because the blocks compile against what users install.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeBlock } from '../src/blocks';
import { allBlocks, type CheckReport, checkReadmes, keyOf } from '../src/check';

const root = join(import.meta.dirname, '..', '..', '..');
const blocks = allBlocks(root);
let report: CheckReport;

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-needed'], {
    stdio: 'ignore',
    timeout: 540_000,
  });
  report = checkReadmes({ root, workDir: join(import.meta.dirname, '..', '.examples') });
  console.log(
    `[readme-check] ${report.blocks.length} blocks in ${new Set(report.blocks.map((b) => b.readme)).size} READMEs: ${report.compiled} compiled, ${report.ran} ran`,
  );
}, 600_000);

const readmes = [...new Set(blocks.map((block) => block.readme))];
for (const readme of readmes) {
  describe(readme, () => {
    for (const block of blocks.filter((candidate) => candidate.readme === readme)) {
      it(describeBlock(block), () => {
        const problems = report.problems.get(keyOf(block)) ?? [];
        expect(problems, `${describeBlock(block)}:\n${problems.join('\n')}`).toEqual([]);
      });
    }
  });
}

it('finds the blocks of every README, and runs some', () => {
  expect(readmes).toContain('README.md');
  expect(readmes).toContain('packages/server/README.md');
  expect(report.compiled).toBeGreaterThan(20);
  expect(report.ran).toBeGreaterThan(0);
});
