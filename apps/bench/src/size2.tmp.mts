import { build } from 'esbuild';

const output = await build({
  entryPoints: [process.argv[2]],
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
const produced = Object.values(output.metafile.outputs)[0];
let nonzod = 0;
const rows = Object.entries(produced.inputs)
  .filter(([i]) => !i.includes('/zod@'))
  .map(([i, v]) => {
    nonzod += v.bytesInOutput;
    return [i.replace(/.*packages\//, '').replace(/.*node_modules\//, ''), v.bytesInOutput];
  })
  .sort((a, b) => b[1] - a[1]);
console.log('total', output.outputFiles[0].contents.byteLength, 'nonzod', nonzod, (nonzod / 1024).toFixed(1) + 'KiB');
if (process.argv[3]) for (const [i, b] of rows) if (b > 0) console.log(String(b).padStart(7), i);
