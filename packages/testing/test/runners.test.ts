// describeTransport registers its checks with runners other than vitest: node:test and jest, each in a process of its
// own.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { transportContractCases } from '../src/index';

it('runs the contract suite under node:test, with the checks that do not apply reported as skipped', async () => {
  const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/esm/index.mjs', import.meta.url));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=@mcpkit/source', '--import', tsx, '--test', '--test-reporter=tap', 'test/node-test-contract.ts'],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), timeout: 60_000 },
  );
  const cases = transportContractCases(() => {
    throw new Error('not run');
  });
  const skipped = cases.filter((contractCase) => contractCase.skip !== undefined).length;
  expect(stdout).toMatch(new RegExp(`# pass ${cases.length - skipped}\\n`));
  expect(stdout).toMatch(new RegExp(`# skipped ${skipped}\\n`));
  expect(stdout).toMatch(/# fail 0\n/);
});

it('runs the contract suite under jest (CommonJS, the built packages), with the same checks skipped', async () => {
  const folder = fileURLToPath(new URL('..', import.meta.url));
  const jest = fileURLToPath(new URL('../node_modules/jest/bin/jest.js', import.meta.url));
  const run = await promisify(execFile)(
    process.execPath,
    [jest, '--rootDir', 'test/jest', '--testMatch', '**/*.test.cjs', '--json', '--ci', '--watchman=false'],
    { cwd: folder, timeout: 120_000 },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`jest failed:\n${error.stderr ?? ''}\n${error.stdout ?? ''}`);
  });
  const report = JSON.parse(run.stdout) as { numPassedTests: number; numPendingTests: number; numFailedTests: number };
  const cases = transportContractCases(() => {
    throw new Error('not run');
  });
  const skipped = cases.filter((contractCase) => contractCase.skip !== undefined).length;
  expect(report).toMatchObject({ numPassedTests: cases.length - skipped, numPendingTests: skipped, numFailedTests: 0 });
});
