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
import typescript from 'typescript';
import { afterAll, expect, it } from 'vitest';
import { codeBlocks } from '../tools/readme-check/src/blocks';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-install-'));
// The project holds node_modules (TypeScript 7, tsx): removing it takes a while on a busy machine.
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 180_000);

const blocks = codeBlocks('README.md', readFileSync(join(root, 'README.md'), 'utf8')).filter(
  (block) => block.heading === 'Use mcpkit in your own project',
);

it('npm run pack, npm install of the tarballs in a fresh folder, then the README server and client', {
  timeout: 600_000,
}, async () => {
  // `npm test` packs once, in its own stage (the same script), and hands the folder to every test in MCPKIT_PACKS.
  let packs = process.env.MCPKIT_PACKS;
  if (packs === undefined) {
    packs = join(scratch, 'packs');
    await run(process.execPath, [join(root, 'scripts', 'pack.mjs'), '--out', packs], { cwd: root, timeout: 540_000 });
  }
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

  // The TypeScript pair, as the README's "In TypeScript" section says: its install line, then `npx tsx my-client.ts`.
  const typescript = codeBlocks('README.md', readFileSync(join(root, 'README.md'), 'utf8')).filter(
    (block) => block.heading === 'In TypeScript',
  );
  const install = typescript.find((block) => block.language === 'sh');
  const tsServer = typescript.find((block) => block.file === 'my-server.ts');
  const tsClient = typescript.find((block) => block.file === 'my-client.ts');
  const tsOutput = typescript.find((block) => block.flags.has('output'));
  expect(install && tsServer && tsClient && tsOutput, 'the README has its TypeScript section').toBeTruthy();
  const [npm, ...installArgs] = install!.code.trim().split(/\s+/);
  await run(npm!, [...installArgs, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project, timeout: 240_000 });
  writeFileSync(join(project, 'my-server.ts'), tsServer!.code);
  writeFileSync(join(project, 'my-client.ts'), tsClient!.code);
  const ts = await run('npx', ['tsx', 'my-client.ts'], { cwd: project, timeout: 60_000 });
  expect(ts.stdout).toBe(tsOutput!.code);

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

  await typeCheckConsumers(project);
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

// Issue 31: `client.connect(new StreamableHttpClientTransport(url))` failed to compile under `tsc --init`'s defaults
// (exactOptionalPropertyTypes), which our own tsconfig does not set. A consumer's code, ESM (.mts) and CJS (.cts),
// compiled against the installed tarballs under the configurations people have: `tsc --init` of TypeScript 5.9 and of
// TypeScript 7 (installed in the project with npm, as a newcomer does), node16 and bundler resolution, every strict
// flag, and once with skipLibCheck off so our own declarations are checked too.
const CONSUMER_ESM = [
  "import { Client } from '@mcpkit/client';",
  "import { createLinkedTransports } from '@mcpkit/jsonrpc-core';",
  "import { McpServer } from '@mcpkit/server';",
  "import { SseClientTransport, StreamableHttpClientTransport } from '@mcpkit/transport-http';",
  "import { StdioClientTransport, StdioServerTransport } from '@mcpkit/transport-stdio';",
  "import { WebSocketClientTransport } from '@mcpkit/transport-websocket';",
  '',
  "const server = new McpServer({ name: 'consumer', version: '1.0.0' });",
  'server.registerTool(',
  "  'add',",
  "  { inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },",
  "  ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),",
  ');',
  '',
  'export async function connectEveryWay(url: URL): Promise<string[]> {',
  "  const client = new Client({ name: 'consumer', version: '1.0.0' });",
  '  await client.connect(new StreamableHttpClientTransport(url));',
  '  await client.connect(new SseClientTransport(url));',
  '  await client.connect(new WebSocketClientTransport(url));',
  "  await client.connect(new StdioClientTransport({ command: 'node', args: ['server.mjs'] }));",
  '  const [serverSide, clientSide] = createLinkedTransports();',
  '  await server.connect(serverSide);',
  '  await client.connect(clientSide);',
  "  const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });",
  '  const first = result.content[0];',
  "  return first?.type === 'text' ? [first.text] : [];",
  '}',
  '',
  'export const serveOnStdio = () => server.connect(new StdioServerTransport());',
  '',
].join('\n');

const CONSUMER_CJS = [
  "import mcpClient = require('@mcpkit/client');",
  "import mcpServer = require('@mcpkit/server');",
  "import http = require('@mcpkit/transport-http');",
  '',
  'async function connect(url: URL): Promise<number> {',
  "  const client = new mcpClient.Client({ name: 'consumer', version: '1.0.0' });",
  '  await client.connect(new http.StreamableHttpClientTransport(url));',
  '  const { tools } = await client.listTools();',
  '  return tools.length;',
  '}',
  "const server = new mcpServer.McpServer({ name: 'consumer', version: '1.0.0' });",
  'export = { connect, server };',
  '',
].join('\n');

// A browser or edge bundle: only the packages whose root entry runs anywhere, and no @types/node.
const CONSUMER_BUNDLED = CONSUMER_ESM.split('\n')
  .filter(
    (line) =>
      !line.includes('transport-stdio') && !line.includes('StdioClientTransport') && !line.includes('serveOnStdio'),
  )
  .join('\n');

const STRICT = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  noEmit: true,
};

async function typeCheckConsumers(project: string): Promise<void> {
  const consumer = join(project, 'consumer');
  await run('mkdir', ['-p', join(consumer, 'src')]);
  writeFileSync(join(consumer, 'src', 'consumer.mts'), CONSUMER_ESM);
  writeFileSync(join(consumer, 'src', 'consumer.cts'), CONSUMER_CJS);
  writeFileSync(join(consumer, 'src', 'bundled.ts'), CONSUMER_BUNDLED);
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-save', 'typescript@7'], {
    cwd: project,
    timeout: 240_000,
  });
  const compilers = {
    'TypeScript 5.9': join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    'TypeScript 7': join(project, 'node_modules', 'typescript', 'bin', 'tsc'),
  };
  const initDefaults = async (tsc: string) => {
    const folder = mkdtempSync(join(scratch, 'init-'));
    await run(process.execPath, [tsc, '--init'], { cwd: folder, timeout: 60_000 });
    return typescript.parseConfigFileTextToJson('tsconfig.json', readFileSync(join(folder, 'tsconfig.json'), 'utf8'))
      .config.compilerOptions as Record<string, unknown>;
  };
  const configs: { name: string; tsc: string; options: Record<string, unknown>; files: string[] }[] = [];
  for (const [name, tsc] of Object.entries(compilers)) {
    const defaults = await initDefaults(tsc);
    expect(defaults.exactOptionalPropertyTypes, `${name}'s tsc --init sets exactOptionalPropertyTypes`).toBe(true);
    const files = ['src/consumer.mts', 'src/consumer.cts'];
    configs.push({ name: `${name}, tsc --init defaults`, tsc, options: { ...defaults, noEmit: true }, files });
    configs.push({
      name: `${name}, bundler resolution, strict`,
      tsc,
      options: { ...STRICT, module: 'preserve', moduleResolution: 'bundler', target: 'es2022', types: [] },
      files: ['src/bundled.ts'],
    });
  }
  configs.push({
    name: 'TypeScript 5.9, node16, strict, skipLibCheck off',
    tsc: compilers['TypeScript 5.9'],
    options: { ...STRICT, module: 'node16', target: 'es2022', skipLibCheck: false, types: ['node'] },
    files: ['src/consumer.mts', 'src/consumer.cts'],
  });
  const failures: string[] = [];
  for (const [index, config] of configs.entries()) {
    const file = `tsconfig.${index}.json`;
    const options = { ...config.options, typeRoots: [join(root, 'node_modules', '@types')] };
    writeFileSync(join(consumer, file), JSON.stringify({ compilerOptions: options, files: config.files }, null, 2));
    await run(process.execPath, [config.tsc, '-p', file], { cwd: consumer, timeout: 180_000 }).catch(
      (error: { stdout?: string; stderr?: string }) => {
        failures.push(`${config.name} (${file}):\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      },
    );
  }
  expect(failures, failures.join('\n')).toEqual([]);
}
