import { defineConfig, type Options } from 'tsup';

/**
 * One build recipe for every package: ESM + CJS with matching declaration files,
 * no minification (consumers bundle), no shims (runs-anywhere entries must stay free of Node built-ins).
 */
export function packageBuild(entry: Record<string, string>, overrides: Options = {}) {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    splitting: true,
    treeshake: true,
    outDir: 'dist',
    ...overrides,
  });
}
