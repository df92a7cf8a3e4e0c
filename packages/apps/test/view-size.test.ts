import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The view library must stay small: a view is one HTML file that every render loads. Both sides are measured the
// same way (esbuild bundle for the browser, minified, every dependency included, gzip -9) and ours must stay under
// the official App's. The figures are in the README.

async function gzippedBundle(source: string): Promise<{ minified: number; gzipped: number }> {
  const output = await build({
    stdin: { contents: source, resolveDir: import.meta.dirname, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@mcpkit/source'],
    write: false,
    logLevel: 'silent',
  });
  const code = output.outputFiles[0]?.contents ?? new Uint8Array();
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

describe('the view library size', () => {
  it('is under the official App, bundled the same way', async () => {
    const ours = await gzippedBundle(
      "import { AppView } from '../src/view/index'; (globalThis as any).AppView = AppView;",
    );
    const theirs = await gzippedBundle(
      "import { App } from '@modelcontextprotocol/ext-apps/app-with-deps'; (globalThis as any).App = App;",
    );
    console.info(
      `[view size] @mcpkit/apps/view AppView: ${ours.minified} B min, ${ours.gzipped} B gzip; ` +
        `@modelcontextprotocol/ext-apps App: ${theirs.minified} B min, ${theirs.gzipped} B gzip`,
    );
    expect(ours.gzipped).toBeLessThan(theirs.gzipped);
    expect(ours.gzipped).toBeLessThan(10_000); // our own budget
  });
});
