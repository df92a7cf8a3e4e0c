// No hand-written source file in packages/ over 600 lines: past that a file does more than one thing (issue 14).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const LIMIT = 600;
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'fixtures') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|mts|cts|mjs|js)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Lines as `wc -l` and editors count them: a final newline ends the last line, it does not start another. */
function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('file size', () => {
  const lines = sources(join(ROOT, 'packages')).map((file) => ({
    file: relative(ROOT, file),
    lines: lineCount(readFileSync(file, 'utf8')),
  }));

  it(`no hand-written file in packages/ has more than ${LIMIT} lines`, () => {
    expect(lines.length).toBeGreaterThan(100);
    const over = lines.filter(({ lines: count }) => count > LIMIT);
    expect(over).toEqual([]);
  });
});
