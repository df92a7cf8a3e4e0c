// What this machine allows the two issue 14 targets the bench leaves missed, measured below every SDK and below the
// bench's own floors (`pnpm --filter @mcpkit/app-bench bench:floors`):
//
// 1. "WebSocket pipelined ≥ stdio pipelined": the same hand-written newline-delimited JSON-RPC echo, 64 calls in
//    flight, once over the pipes of a child process and once over a loopback TCP socket (no WebSocket framing, no SDK,
//    the answers to one chunk in one write on the server). Any WebSocket rides on that TCP socket, so the TCP figure
//    bounds them all.
// 2. "10 MB over HTTP ≤ 0.6× official v2": the four steps no implementation can skip for the bench's 10 MB `big`
//    result, timed in one process: `JSON.stringify`, UTF-8 encoding, UTF-8 decoding, `JSON.parse`.
//
// Prints a Markdown table; `--out FILE` also writes the figures as JSON. The child that serves the echo is this file
// again (`--serve pipe|tcp`), listening on 127.0.0.1 only; every loop is bounded by `--calls` and `--rounds`.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bigText } from './servers/big-text';

const IN_FLIGHT = 64;
const BIG_BYTES = 10 * 1024 * 1024;

const { values } = parseArgs({
  options: {
    serve: { type: 'string' },
    calls: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    out: { type: 'string' },
  },
});

if (values.serve !== undefined) serve(values.serve);
else await main(positive(values.calls, '--calls'), positive(values.rounds, '--rounds'), values.out);

function positive(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number above 0, not ${text}`);
  return value;
}

/** Calls lines out of a text stream: `onLine` for each complete line, chunks joined only where a line spans them. */
function readLines(input: Readable, onLine: (line: string) => void): void {
  let partial = '';
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    let start = 0;
    let newline = chunk.indexOf('\n');
    while (newline !== -1) {
      onLine(partial + chunk.slice(start, newline));
      partial = '';
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    partial += chunk.slice(start);
  });
}

/** The child: echoes `tools/call` texts, the answers of one chunk in one write. */
function serve(mode: string): void {
  const echo = (input: Readable, output: Writable) => {
    let answers = '';
    readLines(input, (line) => {
      const request = JSON.parse(line) as { id: number; params: { arguments: { text: string } } };
      const result = { content: [{ type: 'text', text: request.params.arguments.text }] };
      answers += `${JSON.stringify({ jsonrpc: '2.0', id: request.id, result })}\n`;
    });
    input.on('data', () => {
      if (answers === '') return;
      output.write(answers);
      answers = '';
    });
  };
  if (mode === 'tcp') {
    const server = createServer((socket) => {
      socket.setNoDelay(true);
      echo(socket, socket);
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      process.stdout.write(`${typeof address === 'object' && address !== null ? address.port : 0}\n`);
    });
    process.stdin.on('end', () => process.exit(0));
    process.stdin.resume();
  } else {
    echo(process.stdin, process.stdout);
    process.stdin.on('end', () => process.exit(0));
  }
}

/** Pipelined calls per second over one transport, one figure per round. */
async function echoRounds(mode: 'pipe' | 'tcp', calls: number, rounds: number): Promise<number[]> {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...process.execArgv, script, '--serve', mode], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let input: Readable = child.stdout;
  let output: Writable = child.stdin;
  let socket: Socket | undefined;
  if (mode === 'tcp') {
    const port = await new Promise<number>((resolve) =>
      child.stdout.once('data', (data) => resolve(Number(`${data}`))),
    );
    const tcp = connect(port, '127.0.0.1');
    tcp.setNoDelay(true);
    await new Promise((resolve) => tcp.once('connect', resolve));
    socket = tcp;
    input = tcp;
    output = tcp;
  }
  const waiting = new Map<number, () => void>();
  readLines(input, (line) => {
    const { id } = JSON.parse(line) as { id: number };
    waiting.get(id)?.();
    waiting.delete(id);
  });
  let nextId = 0;
  const call = () =>
    new Promise<void>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      const params = { name: 'echo', arguments: { text: 'hello' } };
      output.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })}\n`);
    });
  const round = async (count: number) => {
    let started = 0;
    const began = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (started < count) {
          started++;
          await call();
        }
      }),
    );
    return count / ((performance.now() - began) / 1000);
  };
  try {
    await round(Math.min(calls, 20_000)); // warm-up
    const figures: number[] = [];
    for (let i = 0; i < rounds; i++) figures.push(await round(calls));
    return figures;
  } finally {
    socket?.destroy();
    child.stdin.end();
    child.kill();
  }
}

/** Milliseconds of each unavoidable step for the 10 MB result, the median of `rounds` (at least 5) runs each. */
function bigResultSteps(rounds: number): Record<string, number> {
  const message = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: bigText(BIG_BYTES) }] } };
  const time = <T>(run: () => T): [number, T] => {
    const spans: number[] = [];
    let value!: T;
    for (let i = 0; i < Math.max(rounds, 5); i++) {
      const began = performance.now();
      value = run();
      spans.push(performance.now() - began);
    }
    return [median(spans), value];
  };
  const [stringify, json] = time(() => JSON.stringify(message));
  const [encode, bytes] = time(() => Buffer.from(json, 'utf8'));
  const [decode, text] = time(() => bytes.toString('utf8'));
  const [parse] = time(() => JSON.parse(text) as unknown);
  return { stringify, encode, decode, parse, total: stringify + encode + decode + parse };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(calls: number, rounds: number, out: string | undefined): Promise<void> {
  const pipe = await echoRounds('pipe', calls, rounds);
  const tcp = await echoRounds('tcp', calls, rounds);
  const big = bigResultSteps(rounds);
  const results = {
    schema: 'mcpkit-bench-floors/1',
    date: new Date().toISOString(),
    node: process.version,
    calls,
    rounds,
    echo: { pipe: median(pipe), tcp: median(tcp), pipeRounds: pipe, tcpRounds: tcp },
    bigResultMs: big,
  };
  const count = (value: number) => Math.round(value).toLocaleString('en-US');
  const ms = (value: number) => value.toFixed(1);
  console.log(`Node ${process.version}, ${calls.toLocaleString('en-US')} calls × ${rounds} rounds (medians)\n`);
  console.log('| floor | figure |\n|---|---|');
  console.log(`| NDJSON echo over pipes, ${IN_FLIGHT} in flight | ${count(results.echo.pipe)} calls/s |`);
  console.log(`| NDJSON echo over loopback TCP, ${IN_FLIGHT} in flight | ${count(results.echo.tcp)} calls/s |`);
  console.log(`| TCP ÷ pipes | ${(results.echo.tcp / results.echo.pipe).toFixed(2)}× |`);
  for (const step of ['stringify', 'encode', 'decode', 'parse', 'total'] as const) {
    console.log(`| 10 MB result: ${step === 'total' ? 'the four steps' : step} | ${ms(big[step] ?? Number.NaN)} ms |`);
  }
  if (out !== undefined) writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
}
