// The checker catches each kind of README mistake and says which README, which block, which line and why: here on a
// fixture README with one mistake per block (the undeclared `tokens` and the wrong printed output are the ones
// issue 18 found by hand).
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { type CheckReport, checkReadmes } from '../src/check';

const root = join(import.meta.dirname, '..', '..', '..');
const fixture = 'tools/readme-check/test/fixtures/README.md';
let report: CheckReport;

beforeAll(() => {
  report = checkReadmes({ root, workDir: join(import.meta.dirname, '..', '.examples-selftest'), readmes: [fixture] });
}, 120_000);

const problemsOf = (index: number) => report.problems.get(`${fixture}#${index}`) ?? [];

it('an undeclared name, with its README line', () => {
  expect(problemsOf(1)).toEqual([`${fixture}:7: Cannot find name 'tokens'. (TS2304)`]);
});

it('a run block whose output is not what the README shows', () => {
  expect(problemsOf(2)).toEqual([]);
  expect(problemsOf(3)).toEqual([
    "is not what block 2 prints.\n--- the README says\n'legacy' 'b3c…'\n--- it printed\nmodern undefined\n",
  ]);
});

it('a block without a language, invalid JSON, a script that does not exist', () => {
  expect(problemsOf(4)).toEqual(['has no language: write ```ts, ```sh, ```json or ```text after the fence']);
  expect(problemsOf(5)[0]).toMatch(/^is not valid JSON: /);
  expect(problemsOf(6)).toEqual(['runs script "no-such-script", which neither package.json defines']);
});

it('a sketch may leave placeholders undeclared, but its types must hold', () => {
  expect(problemsOf(7)).toEqual([`${fixture}:34: Type 'number' is not assignable to type 'string'. (TS2322)`]);
});
