// `npm run docs` builds the API reference of every package (TypeDoc, tools/api-docs): it must succeed, which means no
// broken link, no TypeDoc warning and no undocumented export outside the packages tools/api-docs/config.json holds
// back; and the site must name each entry point as users import it, with cross-package links.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const out = mkdtempSync(join(tmpdir(), 'mcpkit-api-docs-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('builds the API reference with no warning, no broken link and no undocumented export', {
  timeout: 240_000,
}, async () => {
  const report = join(out, 'report.json');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(root, 'tools', 'api-docs', 'build.mjs'), '--out', join(out, 'site'), '--json', report],
    { cwd: root, timeout: 230_000 },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`npm run docs failed:\n${error.stdout}\n${error.stderr}`);
  });
  expect(stdout).toMatch(/exports documented in \d+ packages/);
  const counts = JSON.parse(readFileSync(report, 'utf8')) as Record<string, { total: number }>;
  expect(counts['@mcpkit/jsonrpc-core']!.total).toBeGreaterThan(50);
  // One page per entry point, named as imported; a type of another package links to that package's page.
  expect(existsSync(join(out, 'site', 'modules', '_mcpkit_transport-http_node.html'))).toBe(true);
  const pair = readFileSync(join(out, 'site', 'interfaces', '_mcpkit_testing.TransportPair.html'), 'utf8');
  expect(pair).toContain('href="_mcpkit_jsonrpc-core.Transport.html"');
  // The package's README is its front page.
  expect(readFileSync(join(out, 'site', 'modules', '_mcpkit_testing.html'), 'utf8')).toContain(
    'The transport contract suite',
  );
});
