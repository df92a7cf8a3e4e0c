// Bundles what the bench runs. Servers and drivers: esbuild bundle (not minified) into node_modules/.cache, so the
// bench measures built code on plain node, never tsx. mcpkit is bundled from its sources (the @mcpkit/source
// condition); the official SDKs and zod stay external, so node loads the published builds from node_modules exactly as
// a user's `node server.js` would. Size bundles: everything bundled and minified, nothing external.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The table's columns: mcpkit, its peers, and the hand-written floor. */
export const IMPLEMENTATIONS = ['mcpkit', 'official-v2', 'official-v1', 'tmcp', 'raw'] as const;
export type Implementation = (typeof IMPLEMENTATIONS)[number];
/** Those with an HTTP server and client in the bench (tmcp is measured over stdio, cold start and size). */
export const NETWORK_IMPLEMENTATIONS = ['mcpkit', 'official-v2', 'official-v1', 'raw'] as const;
export type NetworkImplementation = (typeof NETWORK_IMPLEMENTATIONS)[number];

/**
 * How the tools' inputs are written: `json`, plain JSON Schemas (v1 takes only zod); `zod`, zod schemas on the server
 * and the result parsed with zod by the caller, as most users write it. The floor validates nothing either way.
 */
export type Schemas = 'json' | 'zod';

/** One stdio server and the client that drives it, for one schema style. */
export interface StdioSetup {
  implementation: Implementation;
  schemas: Schemas;
  server: string;
  driver: string;
  /** The driver parses every `echo` result with zod (the zod setups). */
  zodResults: boolean;
}

/**
 * The stdio setups, in run order: each SDK's server with its own client, once with plain JSON Schemas and once with
 * zod. tmcp has no client: its server is driven by mcpkit's client, so its column compares the servers. The floor
 * runs once and counts for both styles.
 */
const STDIO_SETUPS: readonly {
  implementation: Implementation;
  schemas: Schemas | 'both';
  server: string;
  driver: string;
}[] = [
  { implementation: 'mcpkit', schemas: 'json', server: 'mcpkit-server', driver: 'mcpkit-client' },
  { implementation: 'mcpkit', schemas: 'zod', server: 'mcpkit-zod-server', driver: 'mcpkit-client' },
  { implementation: 'official-v2', schemas: 'json', server: 'official-v2-server', driver: 'official-v2-client' },
  { implementation: 'official-v2', schemas: 'zod', server: 'official-v2-zod-server', driver: 'official-v2-client' },
  // v1 takes zod only: the same server in both styles, its results parsed with zod in the zod style.
  { implementation: 'official-v1', schemas: 'json', server: 'official-v1-server', driver: 'official-v1-client' },
  { implementation: 'official-v1', schemas: 'zod', server: 'official-v1-server', driver: 'official-v1-client' },
  { implementation: 'tmcp', schemas: 'zod', server: 'tmcp-server', driver: 'mcpkit-client' },
  { implementation: 'raw', schemas: 'both', server: 'raw-server', driver: 'raw-client' },
];

export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUILD_DIR = join(APP_DIR, 'node_modules', '.cache', 'mcpkit-bench');
const SRC = join(APP_DIR, 'src');

/** Paths of the bundled servers and drivers of each implementation (stdio, HTTP) and of mcpkit's WebSocket pair. */
export interface Runnables {
  /** Per implementation, its stdio setups (`schemas: 'json'` first; the floor's one setup counts for both styles). */
  stdio: Record<Implementation, (StdioSetup & { both: boolean })[]>;
  http: Record<NetworkImplementation, { server: string; driver: string }>;
  /**
   * mcpkit's WebSocket server; drivers: mcpkit's client, the official v1 client (v1 has no WebSocket server) and the
   * floor's bare ws client, which runs against the floor's bare ws server.
   */
  ws: { server: string; drivers: { mcpkit: string; 'official-v1': string; raw: string }; floor: string };
}

/** Bundles every server and driver (a second or two). */
export async function buildRunnables(): Promise<Runnables> {
  mkdirSync(BUILD_DIR, { recursive: true });
  const stdioFiles = new Set(STDIO_SETUPS.flatMap((setup) => [`servers/${setup.server}`, `drivers/${setup.driver}`]));
  const entryPoints = [
    ...[...stdioFiles].map((file) => ({ in: join(SRC, `${file}.ts`), out: file.split('/')[1] as string })),
    ...NETWORK_IMPLEMENTATIONS.flatMap((name) => [
      { in: join(SRC, 'servers', 'http', `${name}-http-server.ts`), out: `${name}-http-server` },
      { in: join(SRC, 'drivers', 'http', `${name}-http-client.ts`), out: `${name}-http-client` },
    ]),
    { in: join(SRC, 'servers', 'ws', 'mcpkit-ws-server.ts'), out: 'mcpkit-ws-server' },
    { in: join(SRC, 'servers', 'ws', 'raw-ws-server.ts'), out: 'raw-ws-server' },
    { in: join(SRC, 'drivers', 'ws', 'mcpkit-ws-client.ts'), out: 'mcpkit-ws-client' },
    { in: join(SRC, 'drivers', 'ws', 'official-v1-ws-client.ts'), out: 'official-v1-ws-client' },
    { in: join(SRC, 'drivers', 'ws', 'raw-ws-client.ts'), out: 'raw-ws-client' },
  ];
  await build({
    entryPoints,
    outdir: BUILD_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@mcpkit/source'],
    external: ['@modelcontextprotocol/*', 'zod', 'tmcp', '@tmcp/*'],
    // ws is CommonJS and requires node built-ins; an ESM bundle needs a real `require` for that.
    banner: {
      js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const out = (name: string) => join(BUILD_DIR, `${name}.mjs`);
  const stdio = Object.fromEntries(IMPLEMENTATIONS.map((name) => [name, []])) as unknown as Runnables['stdio'];
  for (const setup of STDIO_SETUPS) {
    stdio[setup.implementation].push({
      implementation: setup.implementation,
      schemas: setup.schemas === 'both' ? 'json' : setup.schemas,
      both: setup.schemas === 'both',
      server: out(setup.server),
      driver: out(setup.driver),
      zodResults: setup.schemas === 'zod',
    });
  }
  const http = Object.fromEntries(
    NETWORK_IMPLEMENTATIONS.map((name) => [
      name,
      { server: out(`${name}-http-server`), driver: out(`${name}-http-client`) },
    ]),
  ) as Runnables['http'];
  return {
    stdio,
    http,
    ws: {
      server: out('mcpkit-ws-server'),
      drivers: {
        mcpkit: out('mcpkit-ws-client'),
        'official-v1': out('official-v1-ws-client'),
        raw: out('raw-ws-client'),
      },
      floor: out('raw-ws-server'),
    },
  };
}

/** Bytes of one minified bundle, raw and gzip (zlib default level). */
export interface BundleSize {
  raw: number;
  gzip: number;
  /** Raw bytes minus what zod's own modules put in the bundle (the code of the SDK and its other dependencies). */
  nonZod: number;
}

/** Where a minified bundle's bytes come from (esbuild metafile): the largest inputs, and totals per package. */
export interface BundleBreakdown {
  /** Input files by bytes in the output, largest first (the top 30). */
  inputs: { input: string; bytes: number }[];
  /** Bytes in the output per package (`@mcpkit/server`, `@cfworker/json-schema`, …; `(bench)` for the entry). */
  packages: { name: string; bytes: number }[];
}

/** Bundles `entry` the way issue 7 says (bundle, minify, platform node) and measures it; nothing is written. */
export async function bundleSize(entry: string): Promise<BundleSize & { breakdown: BundleBreakdown }> {
  const output = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@mcpkit/source'],
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const file = output.outputFiles[0];
  if (file === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  const produced = Object.values(output.metafile.outputs)[0];
  const inputs = Object.entries(produced?.inputs ?? {})
    .map(([input, { bytesInOutput }]) => ({ input, bytes: bytesInOutput }))
    .filter((entry) => entry.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  const packages = new Map<string, number>();
  for (const { input, bytes } of inputs) packages.set(packageOf(input), (packages.get(packageOf(input)) ?? 0) + bytes);
  const zodBytes = packages.get('zod') ?? 0;
  return {
    raw: file.contents.byteLength,
    gzip: gzipSync(file.contents).byteLength,
    nonZod: file.contents.byteLength - zodBytes,
    breakdown: {
      inputs: inputs.slice(0, 30),
      packages: [...packages].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
    },
  };
}

/** The package an esbuild input path belongs to: a workspace package, or the last node_modules package in the path. */
function packageOf(input: string): string {
  const workspace = /(?:^|\/)packages\/([^/]+)\//.exec(input);
  if (workspace) return `@mcpkit/${workspace[1]}`;
  const parts = input.split('node_modules/');
  const last = parts.at(-1);
  if (parts.length < 2 || last === undefined) return '(bench)';
  const segments = last.split('/');
  return (segments[0]?.startsWith('@') ? `${segments[0]}/${segments[1]}` : segments[0]) ?? '(unknown)';
}

/**
 * Size of the minimal servers and client (in src/size) of an implementation: the server with a plain JSON Schema
 * (none for tmcp, which takes schemas through an adapter), the server with zod (v1: its only server), and the client
 * (none for the floor and tmcp).
 */
export async function implementationSizes(name: Implementation): Promise<{
  server?: BundleSize & { breakdown: BundleBreakdown };
  zodServer?: BundleSize & { breakdown: BundleBreakdown };
  client?: BundleSize;
}> {
  const size = (file: string) => bundleSize(join(SRC, 'size', `${file}.ts`));
  switch (name) {
    case 'raw':
      return { server: await size('raw-server') };
    case 'tmcp':
      return { zodServer: await size('tmcp-server') };
    case 'official-v1': {
      const server = await size('official-v1-server');
      return { server, zodServer: server, client: await size('official-v1-client') };
    }
    default:
      return {
        server: await size(`${name}-server`),
        zodServer: await size(`${name}-zod-server`),
        client: await size(`${name}-client`),
      };
  }
}
