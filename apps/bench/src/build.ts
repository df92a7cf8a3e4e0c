// Bundles what the bench runs. Servers and drivers: esbuild bundle (not minified) into node_modules/.cache, so the
// bench measures built code on plain node, never tsx. mcpkit is bundled from its sources (the @mcpkit/source
// condition); the official SDKs and zod stay external, so node loads the published builds from node_modules exactly as
// a user's `node server.js` would. Size bundles: everything bundled and minified, nothing external.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const IMPLEMENTATIONS = ['mcpkit', 'official-v2', 'official-v1', 'raw'] as const;
export type Implementation = (typeof IMPLEMENTATIONS)[number];

export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUILD_DIR = join(APP_DIR, 'node_modules', '.cache', 'mcpkit-bench');
const SRC = join(APP_DIR, 'src');

/** Paths of the bundled servers and drivers of each implementation (stdio, HTTP) and of mcpkit's WebSocket pair. */
export interface Runnables {
  stdio: Record<Implementation, { server: string; driver: string }>;
  http: Record<Implementation, { server: string; driver: string }>;
  /** mcpkit's WebSocket server; drivers: mcpkit's client, and the official v1 client (v1 has no WebSocket server). */
  ws: { server: string; drivers: { mcpkit: string; 'official-v1': string } };
}

/** Bundles every server and driver (a second or two). */
export async function buildRunnables(): Promise<Runnables> {
  mkdirSync(BUILD_DIR, { recursive: true });
  const entryPoints = [
    ...IMPLEMENTATIONS.flatMap((name) => [
      { in: join(SRC, 'servers', `${name}-server.ts`), out: `${name}-server` },
      { in: join(SRC, 'drivers', `${name}-client.ts`), out: `${name}-client` },
      { in: join(SRC, 'servers', 'http', `${name}-http-server.ts`), out: `${name}-http-server` },
      { in: join(SRC, 'drivers', 'http', `${name}-http-client.ts`), out: `${name}-http-client` },
    ]),
    { in: join(SRC, 'servers', 'ws', 'mcpkit-ws-server.ts'), out: 'mcpkit-ws-server' },
    { in: join(SRC, 'drivers', 'ws', 'mcpkit-ws-client.ts'), out: 'mcpkit-ws-client' },
    { in: join(SRC, 'drivers', 'ws', 'official-v1-ws-client.ts'), out: 'official-v1-ws-client' },
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
    external: ['@modelcontextprotocol/*', 'zod'],
    // ws is CommonJS and requires node built-ins; an ESM bundle needs a real `require` for that.
    banner: {
      js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const out = (name: string) => join(BUILD_DIR, `${name}.mjs`);
  const pairs = (suffix: string) =>
    Object.fromEntries(
      IMPLEMENTATIONS.map((name) => [
        name,
        { server: out(`${name}${suffix}-server`), driver: out(`${name}${suffix}-client`) },
      ]),
    ) as Record<Implementation, { server: string; driver: string }>;
  return {
    stdio: pairs(''),
    http: pairs('-http'),
    ws: {
      server: out('mcpkit-ws-server'),
      drivers: { mcpkit: out('mcpkit-ws-client'), 'official-v1': out('official-v1-ws-client') },
    },
  };
}

/** Bytes of one minified bundle, raw and gzip (zlib default level). */
export interface BundleSize {
  raw: number;
  gzip: number;
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
  return {
    raw: file.contents.byteLength,
    gzip: gzipSync(file.contents).byteLength,
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

/** Size of the minimal server and client (both in src/size) of an implementation; the floor has no client. */
export async function implementationSizes(
  name: Implementation,
): Promise<{ server: BundleSize & { breakdown: BundleBreakdown }; client?: BundleSize }> {
  const server = await bundleSize(join(SRC, 'size', `${name}-server.ts`));
  if (name === 'raw') return { server };
  return { server, client: await bundleSize(join(SRC, 'size', `${name}-client.ts`)) };
}
