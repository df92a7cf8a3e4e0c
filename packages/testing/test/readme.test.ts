// The README's two examples are files of this suite: vitest runs test/readme-vitest.test.ts like any test, and this
// file runs test/readme-node-test.ts under node:test; both fail when the README shows something else.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const readme = read('../README.md');

/** The code of every fenced block whose info string is `info`. */
function blocks(info: string): string[] {
  const found: string[] = [];
  const fence = new RegExp(`^\`\`\`${info}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  for (const match of readme.matchAll(fence)) found.push(match[1]!);
  return found;
}

describe('the README examples', () => {
  it('shows test/readme-vitest.test.ts as its vitest example', () => {
    expect(blocks('ts')[0]).toBe(read('./readme-vitest.test.ts'));
  });

  it('shows test/readme-node-test.ts as its node:test example, which passes under node --test', async () => {
    expect(blocks('ts run')[0]).toBe(read('./readme-node-test.ts'));
    const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/esm/index.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@mcpkit/source', '--import', tsx, '--test', '--test-reporter=tap', 'test/readme-node-test.ts'],
      { cwd: fileURLToPath(new URL('..', import.meta.url)), timeout: 30_000 },
    );
    expect(stdout).toMatch(/# pass 2\n/);
    expect(stdout).toMatch(/# fail 0\n/);
  });
});
