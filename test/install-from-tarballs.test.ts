// What the root README's "Use mcpkit in your own project" says, done as a user would: `npm run pack`, then a fresh
// folder outside the repository (no workspace to resolve @mcpkit/* from), `npm install` of the tarballs with plain
// npm (third-party dependencies come from the registry), the README's server and client written as they are, and the
// client run with node: it must print what the README shows. A TypeScript file then type-checks against the
// installed declarations, as a TypeScript user's project would.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { codeBlocks } from '../tools/readme-check/src/blocks';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-install-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const blocks = codeBlocks('README.md', readFileSync(join(root, 'README.md'), 'utf8')).filter(
  (block) => block.heading === 'Use mcpkit in your own project',
);

it('npm run pack, npm install of the tarballs in a fresh folder, then the README server and client', {
  timeout: 600_000,
}, async () => {
  const packs = join(scratch, 'packs');
  await run(process.execPath, [join(root, 'scripts', 'pack.mjs'), '--out', packs], { cwd: root, timeout: 540_000 });
  const tarballs = readdirSync(packs).filter((file) => file.endsWith('.tgz'));
  expect(tarballs).toHaveLength(readdirSync(join(root, 'packages')).length);

  const project = join(scratch, 'my-mcp');
  await run('mkdir', [project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-mcp', private: true, type: 'module' }));
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs.map((file) => join(packs, file))],
    { cwd: project, timeout: 240_000 },
  );

  const server = blocks.find((block) => block.file === 'my-server.mjs');
  const client = blocks.find((block) => block.flags.has('run'));
  const output = blocks.find((block) => block.flags.has('output'));
  expect(server && client && output, 'the README section has its server, client and output blocks').toBeTruthy();
  writeFileSync(join(project, 'my-server.mjs'), server!.code);
  writeFileSync(join(project, 'my-client.mjs'), client!.code);
  const { stdout } = await run(process.execPath, ['my-client.mjs'], { cwd: project, timeout: 30_000 });
  expect(stdout).toBe(output!.code);

  // The installed declarations, as a TypeScript project resolves them (node16 resolution, ESM).
  writeFileSync(
    join(project, 'typed.ts'),
    [
      "import { McpServer } from '@mcpkit/server';",
      "import { Client } from '@mcpkit/client';",
      "import { StdioServerTransport } from '@mcpkit/transport-stdio';",
      "import { createStreamableHttpHandler } from '@mcpkit/transport-http';",
      "import { listen } from '@mcpkit/transport-http/node';",
      "const server = new McpServer({ name: 's', version: '1' });",
      "server.registerTool('add', { inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] } },",
      "  ({ a }) => ({ content: [{ type: 'text', text: a.toFixed(1) }] }));",
      'export const parts = [Client, StdioServerTransport, createStreamableHttpHandler, listen];',
      '',
    ].join('\n'),
  );
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  await run(
    process.execPath,
    [
      tsc,
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--skipLibCheck',
      '--types',
      'node',
      '--typeRoots',
      join(root, 'node_modules', '@types'),
      'typed.ts',
    ],
    { cwd: project, timeout: 120_000 },
  ).catch((error: { stdout?: string }) => {
    throw new Error(`typed.ts does not type-check against the installed packages:\n${error.stdout}`);
  });

  // A plugin author's project: apps/custom-transport's transport and its tests (the contract suite of
  // @mcpkit/testing, a round trip in both eras) copied into the same fresh folder, with vitest from the registry.
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-dev', 'vitest@4.1.12'], {
    cwd: project,
    timeout: 120_000,
  });
  const plugin = join(project, 'custom-transport');
  for (const file of [
    'src/index.ts',
    'src/unix-socket-transport.ts',
    'test/contract.test.ts',
    'test/round-trip.test.ts',
  ]) {
    mkdirSync(join(plugin, dirname(file)), { recursive: true });
    copyFileSync(join(root, 'apps', 'custom-transport', file), join(plugin, file));
  }
  const vitest = await run(
    process.execPath,
    [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', plugin, '--reporter=dot'],
    // Plain text: this run's vitest sets FORCE_COLOR for its children.
    { cwd: project, timeout: 120_000, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`apps/custom-transport's tests fail against the tarballs:\n${error.stdout}\n${error.stderr}`);
  });
  expect(vitest.stdout).toMatch(/Tests\s+\d+ passed/);
  expect(vitest.stdout).not.toMatch(/failed/);
});
