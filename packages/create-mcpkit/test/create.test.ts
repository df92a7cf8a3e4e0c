import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));

it('npm create mcpkit <template> <folder> makes the project mcpkit init makes', { timeout: 30_000 }, async () => {
  const folder = join(mkdtempSync(join(tmpdir(), 'create-mcpkit-')), 'my-server');
  const loader = pathToFileURL(join(repo, 'node_modules/tsx/dist/loader.mjs')).href;
  const bin = join(repo, 'packages/create-mcpkit/src/bin.ts');
  const { stdout } = await run(process.execPath, [
    '--import',
    loader,
    '--conditions=@mcpkit/source',
    bin,
    'http-express',
    folder,
  ]);
  expect(stdout).toContain('npm install');
  expect(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).name).toBe('my-server');
  expect(existsSync(join(folder, 'src/start.ts'))).toBe(true);
});
