import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The root entries that must run in browsers, Deno, Bun and Workers: their built output (ESM and CJS), with every
// workspace dependency they pull in, must reach no Node built-in. esbuild bundles each one for the browser; a
// `node:` import or a bare built-in name anywhere in the graph fails resolution there.
const RUNS_ANYWHERE = [
  '@mcpkit/jsonrpc-core',
  '@mcpkit/protocol',
  // Authorization, both sides and the shared root: the OAuth client runs in browsers and Workers, the bearer check
  // and the OAuth proxy on any fetch runtime.
  '@mcpkit/auth',
  '@mcpkit/server',
  '@mcpkit/client',
  // The HTTP client transports and the web-standard server handler; on Node the client reaches node:http through
  // process.getBuiltinModule, never through an import.
  '@mcpkit/transport-http',
  '@mcpkit/transport-websocket',
  '@mcpkit/tasks',
  '@mcpkit/middleware',
  '@mcpkit/skills',
  // The server (root), the host bridge and the view (browsers), the postMessage transport (browsers, workers).
  '@mcpkit/apps',
  '@mcpkit/gateway',
  // The contract suite, connectInMemory and the wire checker (its schemas are bundled, not read from disk).
  '@mcpkit/testing',
  // The Worker entry and the Durable Object classes: workerd runs them.
  '@mcpkit/cloudflare',
] as const;

const root = join(import.meta.dirname, '..');
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

async function nodeImportsOf(entry: string): Promise<string[]> {
  let metafile: Metafile;
  try {
    ({ metafile } = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'browser',
      format: 'esm',
      logLevel: 'silent',
      absWorkingDir: root,
    }));
  } catch (error) {
    // A failed bundle (a `node:` import esbuild cannot resolve for the browser, among others) says why in `errors`.
    const errors = (error as { errors?: { text: string }[] }).errors;
    if (errors !== undefined && errors.length > 0) return errors.map((problem) => problem.text);
    throw error;
  }
  const imports = Object.values(metafile.inputs).flatMap((input) => input.imports.map((imported) => imported.path));
  return imports.filter((path) => builtins.has(path));
}

/** Every import path a built entry's bundle reaches, with `external` packages left as imports (platform-neutral). */
async function bareImportsOf(entry: string, external: string[]): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'neutral',
    format: 'esm',
    logLevel: 'silent',
    absWorkingDir: root,
    mainFields: ['module', 'main'],
    external,
  });
  return Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((imported) => imported.path));
}

// @mcpkit/middleware runs anywhere at its root and at every built-in's subpath (tracing and metrics reach only
// @opentelemetry/api, which runs anywhere too).
const SUBPATHS: Partial<Record<(typeof RUNS_ANYWHERE)[number], readonly string[]>> = {
  '@mcpkit/auth': ['client/index', 'server/index'],
  '@mcpkit/client': ['auth/index'],
  // The client side and the web-standard server handler, each on its own entry (the root re-exports both).
  '@mcpkit/transport-http': ['client/index', 'server/index'],
  // The transports' scale-out plumbing (shared broadcasts, subscriptions), off the root entry.
  '@mcpkit/server': ['cluster/index'],
  '@mcpkit/middleware': [
    'logging/index',
    'tracing/index',
    'metrics/index',
    'rate-limit/index',
    'timeouts/index',
    'keep-alive/index',
    'client/index',
    'transport/index',
  ],
  // The extensions to install on either side (`mcp.extend(tasks())`, `client.extend(skills())`).
  '@mcpkit/tasks': ['server/index', 'client/index', 'store/index'],
  '@mcpkit/skills': ['server/index', 'client/index'],
  '@mcpkit/apps': ['host/index', 'view/index', 'post-message-transport'],
  '@mcpkit/testing': ['wire/index'],
};

function builtEntries(name: (typeof RUNS_ANYWHERE)[number]): string[] {
  const folder = join(root, 'packages', name.slice('@mcpkit/'.length), 'dist');
  return ['index', ...(SUBPATHS[name] ?? [])].flatMap((entry) => [
    join(folder, `${entry}.js`),
    join(folder, `${entry}.cjs`),
  ]);
}

describe('root entries run anywhere', () => {
  for (const name of RUNS_ANYWHERE) {
    for (const file of builtEntries(name)) {
      const entry = file.slice(join(root, 'packages', name.slice('@mcpkit/'.length), 'dist').length + 1);
      it(`${name} ${entry} imports no Node built-in`, async () => {
        expect(existsSync(file), `${file} is missing: build the workspace first (npm test does)`).toBe(true);
        expect(await nodeImportsOf(file)).toEqual([]);
      });
    }
  }

  it('the check catches a Node built-in reached through a relative import', async () => {
    const found = await nodeImportsOf(join(root, 'test/fixtures/node-importer/index.js'));
    expect(found.join('\n')).toMatch(/node:fs/);
  });
});

describe('@mcpkit/middleware works without its optional peer', () => {
  // @opentelemetry/api is an optional peer dependency: only ./tracing and ./metrics may reach it, so an application
  // that imports anything else never needs it installed.
  const folder = join(root, 'packages/middleware/dist');
  for (const entry of ['index', ...(SUBPATHS['@mcpkit/middleware'] ?? [])]) {
    const needsOtel = entry === 'tracing/index' || entry === 'metrics/index';
    it(`${entry} ${needsOtel ? 'reaches' : 'never reaches'} @opentelemetry/api`, async () => {
      const imports = await bareImportsOf(join(folder, `${entry}.js`), ['@opentelemetry/api', 'jose']);
      expect(imports.includes('@opentelemetry/api')).toBe(needsOtel);
    });
  }
});

describe('@mcpkit/auth: only /server reaches @mcpkit/server (its optional peer)', () => {
  // A client-only install (the OAuth client, or the deprecated @mcpkit/client/auth) must never need server code.
  for (const [folder, entry, reaches] of [
    ['packages/auth/dist', 'index', false],
    ['packages/auth/dist', 'client/index', false],
    ['packages/client/dist', 'auth/index', false],
    ['packages/auth/dist', 'server/index', true],
  ] as const) {
    it(`${folder.split('/')[1]} ${entry} ${reaches ? 'reaches' : 'never reaches'} @mcpkit/server`, async () => {
      const imports = await bareImportsOf(join(root, folder, `${entry}.js`), ['@mcpkit/server', 'jose']);
      expect(imports.includes('@mcpkit/server')).toBe(reaches);
    });
  }
});
