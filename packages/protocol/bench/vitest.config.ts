import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Runs only the benchmarks of this package (they are outside the normal `src/`/`test/` include globs):
//   MCPKIT_BENCH=1 npx vitest run --config packages/protocol/bench/vitest.config.ts
const conditions = ['@mcpkit/source', 'module', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@mcpkit/source'] } },
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['bench/**/*.bench.test.ts'],
    testTimeout: 120_000,
  },
});
