#!/usr/bin/env node
// Prints the closing line CI reads ("tests: N passed, N failed, N skipped") from vitest's JSON report, and fails when
// the report is missing or counts no test at all: a suite that ran nothing must not look green.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
if (!existsSync(file)) {
  console.error(`[summary] ${file} is missing: vitest did not write its report`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0) process.exit(1);
