// Issue 7 metric 8: WebSocket. The server is mcpkit's (the official v2 SDK has no WebSocket transport; v1 has only a
// client), driven by mcpkit's client and by v1's `WebSocketClientTransport`: 1 and 16 connections with sequential
// calls, then 64 calls in flight on one connection. The floor is a bare ws client against a bare ws server, JSON-RPC
// by hand (issue 14: the floor where missing): what ws and Node cost per call. One server per client and round.

import { createRequire } from 'node:module';
import type { Implementation } from '../build';
import { WS_IN_FLIGHT, WS_LEVELS } from '../metrics';
import { addSample } from '../report';
import { runConcurrentProcess, startNetworkServer } from '../run';
import { recorded, type SuiteContext } from './context';

/** Where ws lives: the WebSocket client driver loads its `WebSocket` class from there at run time. */
const WS_MODULE = createRequire(import.meta.url).resolve('ws');

/** The clients measured over WebSocket (`raw`: the floor, on its own server). */
export const WS_CLIENTS = ['mcpkit', 'official-v1', 'raw'] as const satisfies readonly Implementation[];

/** Runs the WebSocket metrics of client `name` for one round. */
export async function wsRound(context: SuiteContext, name: (typeof WS_CLIENTS)[number], round: number): Promise<void> {
  const { runnables, counts, samples, log } = context;
  await recorded(context, 'ws', name, round, async () => {
    const server = await startNetworkServer(name === 'raw' ? runnables.ws.floor : runnables.ws.server, []);
    try {
      const result = await runConcurrentProcess(runnables.ws.drivers[name], {
        url: server.url,
        mode: 'stateful-json',
        serverPid: server.pid,
        cpuFile: server.cpuFile,
        levels: [...WS_LEVELS],
        warmupCalls: counts.networkWarmupCalls,
        durationMs: counts.networkDurationMs,
        // The stdio pipelined phase's counts (drive.ts): WebSocket ÷ stdio pipelined is one of issue 14's targets.
        pipelined: { inFlight: WS_IN_FLIGHT, warmupCalls: counts.pipelinedWarmup, calls: counts.pipelinedCalls },
        wsModule: WS_MODULE,
        deadlineMs: counts.deadlineMs,
      });
      for (const level of result.levels)
        addSample(samples, `ws-${level.sessions}-calls-per-s`, name, level.callsPerSec);
      if (result.pipelined) addSample(samples, 'ws-pipelined-calls-per-s', name, result.pipelined.callsPerSec);
      const parts = result.levels.map((level) => `${level.sessions}: ${Math.round(level.callsPerSec)}/s`);
      if (result.pipelined) parts.push(`pipelined ${Math.round(result.pipelined.callsPerSec)}/s`);
      log(`  round ${round} ${name} ws: ${parts.join(', ')}`);
    } finally {
      await server.stop();
    }
  });
}

/**
 * Heap per idle WebSocket connection (after GC) on mcpkit's server and on the floor (a bare `ws` server): the
 * sessions are opened by mcpkit's client with `initialize` and kept; the difference is what mcpkit holds per connection
 * beyond ws and node.
 */
export async function wsMemoryRound(context: SuiteContext, name: 'mcpkit' | 'raw', round: number): Promise<void> {
  const { runnables, counts, samples, log } = context;
  await recorded(context, 'memory-idle-ws-connection', name, round, async () => {
    const server = await startNetworkServer(name === 'mcpkit' ? runnables.ws.server : runnables.ws.floor, [], true);
    try {
      const result = await runConcurrentProcess(runnables.ws.drivers.mcpkit, {
        url: server.url,
        mode: 'stateful-json',
        serverPid: server.pid,
        cpuFile: server.cpuFile,
        levels: [],
        warmupCalls: 0,
        durationMs: 0,
        // At least 300: a connection's few KiB drown in GC noise below that (quick mode opens 50 HTTP sessions).
        memorySessions: Math.max(counts.memorySessions, 300),
        wsModule: WS_MODULE,
        deadlineMs: counts.deadlineMs,
      });
      if (result.memory === undefined) throw new Error('the memory run reported nothing');
      addSample(samples, 'memory-idle-ws-connection-heap-bytes', name, result.memory.heapBytesPerSession);
      log(`  round ${round} ${name} ws memory: ${Math.round(result.memory.heapBytesPerSession)} B heap per connection`);
    } finally {
      await server.stop();
    }
  });
}
