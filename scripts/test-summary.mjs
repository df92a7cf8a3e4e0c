#!/usr/bin/env node
// Prints the closing line CI reads ("tests: N passed, N failed, N skipped") from vitest's JSON reports: the system
// Node's whole suite and each line of the Node matrix (a line per report first). Fails when a report is missing or a
// report counts no test at all: a suite that ran nothing must not look green.
import { existsSync, readFileSync } from 'node:fs';

const files = process.argv.length > 2 ? process.argv.slice(2) : ['.vitest-report.json'];
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;
for (const file of files) {
  if (!existsSync(file)) {
    console.error(`[summary] ${file} is missing: vitest did not write its report`);
    broken = true;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const p = report.numPassedTests ?? 0;
  const f = report.numFailedTests ?? 0;
  const s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  if (files.length > 1) console.log(`[summary] ${file}: ${p} passed, ${f} failed, ${s} skipped`);
  if (p === 0) broken = true;
  passed += p;
  failed += f;
  skipped += s;
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || broken) process.exit(1);
