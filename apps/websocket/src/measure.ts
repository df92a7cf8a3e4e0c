// Measurements for the WebSocket transport (not part of `npm test`): `npx pnpm --filter @mcpkit/app-websocket measure`.
//
// (a) tools/call round trips per second over ONE connection, WebSocket vs stdio, in the same run and against the same
//     McpServer (src/measure-server.ts in a child process for both), one at a time and 64 in flight, in both eras.
// (b) memory per idle connection: a WebSocket server in a child process (--expose-gc) reports heap and RSS after a
//     full GC, before and after IDLE connected clients (each a Client that finished connecting, in one era).
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@mcpkit/client';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import { WebSocketClientTransport } from '@mcpkit/transport-websocket';
import { WebSocket } from 'ws';

const WARMUP = 500;
const CALLS = 5_000;
const IN_FLIGHT = 64;
const ROUNDS = 3; // each figure is the median of this many runs, WebSocket and stdio alternating
const IDLE = 500;
const ERAS = [
  { era: 'modern', connect: {} },
  { era: 'legacy', connect: { protocolVersion: '2025-11-25' } },
] as const;

const APP = fileURLToPath(new URL('..', import.meta.url));
const SERVER = fileURLToPath(new URL('./measure-server.ts', import.meta.url));
const NODE_ARGS = ['--conditions=@mcpkit/source', '--import', 'tsx'];
const CALL = { timeoutMs: 30_000 } as const;

function newClient(): Client {
  return new Client({ name: 'measure', version: '1.0.0' }, { requestTimeoutMs: 30_000 });
}

async function echo(client: Client): Promise<void> {
  const result = await client.callTool({ name: 'echo', arguments: { text: 'ping' } }, CALL);
  if (result.content[0]?.type !== 'text' || result.content[0].text !== 'ping') throw new Error('echo answered wrong');
}

/** Round trips per second: `CALLS` calls, `parallel` at a time (after `WARMUP` that are not timed). */
async function roundTripsPerSecond(client: Client, parallel: number): Promise<number> {
  const run = async (count: number) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next++;
        await echo(client);
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
  };
  await run(WARMUP);
  const started = performance.now();
  await run(CALLS);
  return CALLS / ((performance.now() - started) / 1000);
}

interface WsChild {
  readonly child: ChildProcess;
  readonly url: string;
  memory(): Promise<{ heapUsed: number; rss: number; connections: number }>;
  stop(): Promise<void>;
}

function startWsServer(): Promise<WsChild> {
  const child = fork(SERVER, ['ws'], { cwd: APP, execArgv: [...NODE_ARGS, '--expose-gc'], stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`measure-server exited with ${code}`)));
    child.once('message', (message) => {
      const { url } = message as { url: string };
      resolve({
        child,
        url,
        memory: () =>
          new Promise((done) => {
            child.once('message', (reply) => done(reply as { heapUsed: number; rss: number; connections: number }));
            child.send('memory');
          }),
        stop: () =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.disconnect();
          }),
      });
    });
  });
}

function stdioTransport(): StdioClientTransport {
  return new StdioClientTransport({ command: process.execPath, args: [...NODE_ARGS, SERVER, 'stdio'], cwd: APP });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function throughput(): Promise<void> {
  console.log(`\n(a) echo tools/call round trips per second over one connection`);
  console.log(`    ${CALLS} calls after ${WARMUP} warm-up, median of ${ROUNDS} runs; server in a child process\n`);
  console.log('| era    | transport | 1 at a time | 64 in flight |');
  console.log('| ------ | --------- | ----------: | -----------: |');
  const ws = await startWsServer();
  try {
    for (const era of ERAS) {
      const figures = {
        websocket: { seq: [] as number[], par: [] as number[] },
        stdio: { seq: [] as number[], par: [] as number[] },
      };
      for (let round = 0; round < ROUNDS; round++) {
        for (const transport of ['websocket', 'stdio'] as const) {
          const client = newClient();
          await client.connect(
            transport === 'websocket' ? new WebSocketClientTransport(ws.url, { WebSocket }) : stdioTransport(),
            era.connect,
          );
          if (client.era !== era.era) throw new Error(`connected in ${client.era}, expected ${era.era}`);
          figures[transport].seq.push(await roundTripsPerSecond(client, 1));
          figures[transport].par.push(await roundTripsPerSecond(client, IN_FLIGHT));
          await client.close();
        }
      }
      for (const transport of ['websocket', 'stdio'] as const) {
        const { seq, par } = figures[transport];
        console.log(
          `| ${era.era.padEnd(6)} | ${transport.padEnd(9)} | ${format(median(seq)).padStart(11)} | ${format(median(par)).padStart(12)} |`,
        );
      }
    }
  } finally {
    await ws.stop();
  }
}

async function idleMemory(): Promise<void> {
  console.log(`\n(b) server memory per idle WebSocket connection (${IDLE} connected Clients, after a full GC)\n`);
  console.log('| era    | heap / connection | RSS / connection | heap before → after | RSS before → after |');
  console.log('| ------ | ----------------: | ---------------: | ------------------- | ------------------ |');
  for (const era of ERAS) {
    const ws = await startWsServer(); // a fresh process per era: nothing left over from the other
    const clients: Client[] = [];
    try {
      // One connection first so the code paths a connection uses are loaded and compiled before the baseline.
      const first = newClient();
      await first.connect(new WebSocketClientTransport(ws.url, { WebSocket }), era.connect);
      await echo(first);
      clients.push(first);
      const before = await ws.memory();
      for (let batch = 0; batch < IDLE / 50; batch++) {
        const opened = await Promise.all(
          Array.from({ length: 50 }, async () => {
            const client = newClient();
            await client.connect(new WebSocketClientTransport(ws.url, { WebSocket }), era.connect);
            return client;
          }),
        );
        clients.push(...opened);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      const after = await ws.memory();
      if (after.connections !== IDLE + 1) throw new Error(`server sees ${after.connections} connections`);
      const heap = (after.heapUsed - before.heapUsed) / IDLE;
      const rss = (after.rss - before.rss) / IDLE;
      console.log(
        `| ${era.era.padEnd(6)} | ${kib(heap).padStart(17)} | ${kib(rss).padStart(16)} | ${mib(before.heapUsed)} → ${mib(after.heapUsed)} | ${mib(before.rss)} → ${mib(after.rss)} |`,
      );
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await ws.stop();
    }
  }
}

function format(perSecond: number): string {
  return `${Math.round(perSecond).toLocaleString('en-US')}/s`;
}
function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

console.log(`node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
await throughput();
await idleMemory();
