import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// @mcpkit/auth/client runs in browsers, Deno, Bun and Workers: no module of it may import a Node built-in.

const folder = fileURLToPath(new URL('../../src/client/', import.meta.url));
const NODE_IMPORT =
  /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](node:[^'"]+|fs|path|crypto|http|https|url|os|buffer)['"]/;

describe('@mcpkit/auth/client', () => {
  it('imports no Node built-in in any source module', async () => {
    const files = (await readdir(folder)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(10);
    const offenders: string[] = [];
    for (const name of files) {
      const source = await readFile(join(folder, name), 'utf8');
      const match = NODE_IMPORT.exec(source);
      if (match !== null) offenders.push(`${name}: ${match[1]}`);
    }
    expect(offenders).toEqual([]);
  });
});
