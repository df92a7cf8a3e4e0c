#!/usr/bin/env node
// Prints the closing line CI reads ("tests: N passed, N failed, N skipped") from vitest's JSON reports: the system
// Node's whole suite and each line of the Node matrix (a line per report first). Fails when a report is missing or a
// report counts no test at all: a suite that ran nothing must not look green. scripts/test-all.mjs imports
// `countTests` to print the same line at the very end of `npm test`.
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Adds up the reports; `problems` says which report is missing or counted no test (either makes the run red). */
export function countTests(files) {
  const total = { passed: 0, failed: 0, skipped: 0, lines: [], problems: [] };
  for (const file of files) {
    if (!existsSync(file)) {
      total.problems.push(`${file} is missing: vitest did not write its report`);
      continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const p = report.numPassedTests ?? 0;
    const f = report.numFailedTests ?? 0;
    const s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    total.lines.push(`${file}: ${p} passed, ${f} failed, ${s} skipped`);
    if (p === 0) total.problems.push(`${file} counts no passed test`);
    total.passed += p;
    total.failed += f;
    total.skipped += s;
  }
  return total;
}

/** The closing line. */
export const closingLine = (total) => `tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`;

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = process.argv.length > 2 ? process.argv.slice(2) : ['.vitest-report.json'];
  const total = countTests(files);
  for (const problem of total.problems) console.error(`[summary] ${problem}`);
  if (files.length > 1) for (const line of total.lines) console.log(`[summary] ${line}`);
  console.log(closingLine(total));
  if (total.failed > 0 || total.problems.length > 0) process.exit(1);
}
