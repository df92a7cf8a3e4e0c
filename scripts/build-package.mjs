#!/usr/bin/env node
// The `build` script of every package: tsup (ESM + CJS + declarations, see tsup.base.ts) without its per-file log,
// then one line saying which package was built and how long it took. Errors still print in full. `scripts/build.mjs`
// shows these lines as the packages finish, so a build on two cores is never minutes of silence.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const { name } = JSON.parse(readFileSync('package.json', 'utf8'));
const tsup = createRequire(import.meta.url).resolve('tsup/dist/cli-default.js');
const started = performance.now();
const child = spawn(process.execPath, [tsup, '--silent', ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('close', (code, signal) => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (code === 0) {
    // The task hash this dist/ was built for (turbo sets TURBO_HASH; the file is a turbo output, so a cache restore
    // brings it back with its dist/): `scripts/build.mjs --if-needed` compares it with the hash turbo plans now.
    // biome-ignore lint/suspicious/noUndeclaredEnvVars: turbo sets it for each task; it is the task's hash, not an input
    const hash = process.env.TURBO_HASH;
    if (hash) writeFileSync('.build-hash', hash);
    console.log(`[build] ${name} built in ${seconds} s`);
  } else console.error(`[build] ${name} FAILED after ${seconds} s (${signal ?? `exit ${code}`})`);
  process.exit(code ?? 1);
});
