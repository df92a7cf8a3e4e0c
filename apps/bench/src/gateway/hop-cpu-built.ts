// `bench:gateway-cpu`: bundles hop-cpu.ts with esbuild (from the sources, as every bench process) and runs it, passing
// its arguments on. Run through tsx, the hop's figure included tsx's own cost: it keeps function names by wrapping
// every function created at run time, and a hop creates a few per call, so about a tenth of that profile was tsx.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BUILD_DIR } from '../build';

const out = join(BUILD_DIR, 'gateway-hop-cpu', 'hop-cpu.mjs');
await build({
  entryPoints: [join(new URL('.', import.meta.url).pathname, 'hop-cpu.ts')],
  outfile: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@mcpkit/source'],
  logLevel: 'warning',
});
const run = spawnSync(
  process.execPath,
  [...process.execArgv.filter((flag) => flag.startsWith('--cpu-prof')), out, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
process.exit(run.status ?? 1);
