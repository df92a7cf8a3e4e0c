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

/** Paths of the bundled server and driver of each implementation. */
export type Runnables = Record<Implementation, { server: string; driver: string }>;

/** Bundles every server and driver (about a second). */
export async function buildRunnables(): Promise<Runnables> {
  mkdirSync(BUILD_DIR, { recursive: true });
  const entryPoints = IMPLEMENTATIONS.flatMap((name) => [
    { in: join(SRC, 'servers', `${name}-server.ts`), out: `${name}-server` },
    { in: join(SRC, 'drivers', `${name}-client.ts`), out: `${name}-client` },
  ]);
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
    logLevel: 'warning',
  });
  return Object.fromEntries(
    IMPLEMENTATIONS.map((name) => [
      name,
      { server: join(BUILD_DIR, `${name}-server.mjs`), driver: join(BUILD_DIR, `${name}-client.mjs`) },
    ]),
  ) as Runnables;
}

/** Bytes of one minified bundle, raw and gzip (zlib default level). */
export interface BundleSize {
  raw: number;
  gzip: number;
}

/** Bundles `entry` the way issue 7 says (bundle, minify, platform node) and measures it; nothing is written. */
export async function bundleSize(entry: string): Promise<BundleSize> {
  const output = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@mcpkit/source'],
    write: false,
    logLevel: 'error',
  });
  const file = output.outputFiles[0];
  if (file === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return { raw: file.contents.byteLength, gzip: gzipSync(file.contents).byteLength };
}

/** Size of the minimal server (src/servers) and client (src/size) of an implementation; the floor has no client. */
export async function implementationSizes(name: Implementation): Promise<{ server: BundleSize; client?: BundleSize }> {
  const server = await bundleSize(join(SRC, 'servers', `${name}-server.ts`));
  if (name === 'raw') return { server };
  return { server, client: await bundleSize(join(SRC, 'size', `${name}-client.ts`)) };
}
