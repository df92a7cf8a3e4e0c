import { expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { buildReports, reportPath, staleReports } from '../scripts/api-report.mjs';

interface Report {
  folder: string;
  name: string;
  count: number;
  text: string;
}

// Every package's public surface is checked in (api/<package>.api.md). A change to what users can import must be a
// reviewed change to that file, so this fails until the report is regenerated and committed with the change.
it('the public API of every package matches its checked-in report', () => {
  const reports = buildReports() as Report[];
  expect(reports.length).toBeGreaterThan(0);
  const stale = (staleReports(reports) as Report[]).map((report) => `${report.name} (${reportPath(report.folder)})`);
  expect(
    stale,
    `The public surface differs from the API report of: ${stale.join(', ')}.\n` +
      'Review the difference (git diff api/ after regenerating), then accept it with: node scripts/api-report.mjs',
  ).toEqual([]);
}, 120_000);
