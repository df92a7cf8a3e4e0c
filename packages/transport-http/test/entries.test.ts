import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// What each entry point pulls in, read from the source as a bundler resolves it: a client-only application imports
// `/client` and must need no server code (no @mcpkit/server, no server/ module) and no Node built-in.
const packageRoot = join(import.meta.dirname, '..');

async function inputsOf(entry: string): Promise<{ files: string[]; packages: string[] }> {
  const result = await build({
    entryPoints: [join(packageRoot, entry)],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'esm',
    logLevel: 'silent',
    conditions: ['@mcpkit/source'],
    // Workspace packages are left external so their names show; relative imports are followed.
    external: ['@mcpkit/*', 'eventsource-parser'],
  });
  const inputs = Object.values(result.metafile.inputs);
  return {
    files: Object.keys(result.metafile.inputs),
    packages: [...new Set(inputs.flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path)))],
  };
}

describe('entry points of @mcpkit/transport-http', () => {
  it('/client reaches neither @mcpkit/server nor any server module', async () => {
    const { files, packages } = await inputsOf('src/client/index.ts');
    expect(packages.sort()).toEqual(['@mcpkit/jsonrpc-core', '@mcpkit/protocol', 'eventsource-parser']);
    expect(files.filter((file) => file.includes('/src/server/'))).toEqual([]);
  });

  it('/server reaches @mcpkit/server and no client module', async () => {
    const { files, packages } = await inputsOf('src/server/index.ts');
    expect(packages).toContain('@mcpkit/server');
    expect(files.filter((file) => file.includes('/src/client/'))).toEqual([]);
  });

  it('the deprecated root entry still exports both sides', async () => {
    const root = await import('../src/index');
    const client = await import('../src/client/index');
    const server = await import('../src/server/index');
    expect(Object.keys(root).sort()).toEqual([...Object.keys(client), ...Object.keys(server)].sort());
  });
});
