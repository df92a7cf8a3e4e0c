import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { JsonRpcMessage, Transport } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { Client } from '../src/index';

const SERVER = fileURLToPath(new URL('./fixtures/slow-stdio-server.mjs', import.meta.url));

/** Newline-delimited JSON over a child's stdin/stdout: the least a stdio transport does, without a dependency on one. */
function childTransport(startupMs: number): Transport & { child?: ChildProcessWithoutNullStreams } {
  const transport: Transport & { child?: ChildProcessWithoutNullStreams } = {
    async start() {
      const child = spawn(process.execPath, [SERVER, String(startupMs)], { stdio: 'pipe' });
      transport.child = child;
      createInterface({ input: child.stdout }).on('line', (line) =>
        transport.onmessage?.(JSON.parse(line) as JsonRpcMessage),
      );
      child.on('exit', () => transport.onclose?.());
    },
    send(message) {
      transport.child!.stdin.write(`${JSON.stringify(message)}\n`);
    },
    async close() {
      transport.child?.stdin.end();
      transport.child?.kill();
    },
  };
  return transport;
}

describe('a stdio server that starts slowly', () => {
  it('keeps its era: the probe timeout only counts once the server has said something', async () => {
    const client = new Client({ name: 'slow-start-test', version: '1.0.0' });
    const transport = childTransport(1_500);
    const started = Date.now();
    // Five times shorter than the start-up: before, this fell back to initialize and ended legacy.
    await client.connect(transport, { probeTimeoutMs: 300 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    await client.close();
  });
});
