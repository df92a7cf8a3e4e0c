import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Regression (issue 12, defect 2): a client that opened an SSE stream and never read it made the server buffer
// without bound — 256 MB pushed cost +331 MB of RSS, and the memory stayed after the session was deleted. Each case
// runs in its own child (sse-flood.ts) so the figures are that case's alone: 256 MB of 64 KiB events pushed at a
// client that reads nothing, on every kind of SSE stream and both node paths (the fast path writes to the socket, the
// web path streams the web-standard core's ReadableStream). "Before" is a warmed-up server's settled RSS; "after" is
// once the session ended and the heap was collected (see the fixture for the Node 22/24 page pool). A 2026-07-28
// stream that overflows is closed, which cancels its request: the tool stops pushing there. Measured on the code before
// the fix: +268 to +287 MB at the peak, and +261 MB still held after the session ended on the GET and web-path
// streams; after it, +4 to +22 MB at the peak and at most +8 MB after, on Node 20, 22 and 24.

const FIXTURE = fileURLToPath(new URL('./fixtures/sse-flood.ts', import.meta.url));
const MiB = 1024 * 1024;
const CASES = ['post-fast', 'get-fast', 'post-web', 'get-web', 'modern-fast'] as const;

interface Figures {
  name: string;
  before: number;
  peak: number;
  after: number;
}

function runCase(name: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--min-semi-space-size=16',
        '--max-semi-space-size=16',
        '--conditions=@mcpkit/source',
        '--import',
        'tsx',
        '--expose-gc',
        FIXTURE,
        name,
        '256',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const line = out.split('\n').find((text) => text.startsWith('{'));
      if (code !== 0 || line === undefined) reject(new Error(`${name} exited with ${code}: ${err.slice(-2_000)}`));
      else resolve(JSON.parse(line));
    });
  });
}

describe('SSE back-pressure: 256 MB pushed at a client that never reads', () => {
  it('grows RSS by less than 32 MB, and gives it back once the session ended', async () => {
    const figures: Figures[] = [];
    // Two children at a time: the machine may have two cores.
    for (let index = 0; index < CASES.length; index += 2) {
      figures.push(...(await Promise.all(CASES.slice(index, index + 2).map(runCase))));
    }
    const table = figures.map(
      (f) =>
        `${f.name}: peak +${((f.peak - f.before) / MiB).toFixed(1)} MB, after +${((f.after - f.before) / MiB).toFixed(1)} MB`,
    );
    for (const f of figures) {
      expect(f.peak - f.before, table.join('; ')).toBeLessThan(32 * MiB);
      expect(f.after - f.before, table.join('; ')).toBeLessThan(16 * MiB);
    }
  }, 90_000);
});
