import type { Socket } from 'node:net';
import { McpServer } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { createWebSocketServer } from '../src/node/index';
import { closeAfterEach, closeAfterTest, rawSocket } from './helpers';

// Pipelined frames that arrive together are handed to the session several per event-loop turn once the answers are
// known to be small (one per turn made pipelined WebSocket up to 2.3× slower than stdio), and one per turn while
// nothing was answered yet. The back-pressure test covers big answers.

closeAfterEach();

/** Sends every message in one TCP write, so they reach the server as one chunk of frames. */
function burst(socket: WebSocket, messages: unknown[]): void {
  const tcp = (socket as unknown as { _socket: Socket })._socket;
  tcp.cork();
  for (const message of messages) socket.send(JSON.stringify(message));
  tcp.uncork();
}

function collect(socket: WebSocket, count: number, timeoutMs: number): Promise<Map<unknown, unknown>> {
  const answers = new Map<unknown, unknown>();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`got ${answers.size} of ${count} answers`)), timeoutMs);
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id: unknown };
      answers.set(message.id, message);
      if (answers.size === count) {
        clearTimeout(timer);
        resolve(answers);
      }
    });
  });
}

describe('server: pipelined frames', () => {
  it('hands a burst over several frames per turn once answers are small, in order, all answered', async () => {
    const mcp = new McpServer({ name: 'batch', version: '1.0.0' });
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: { text: string; turn: number }[] = [];
    mcp.registerTool(
      'echo',
      { inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const },
      ({ text }) => {
        seen.push({ text, turn });
        return { content: [{ type: 'text', text }] };
      },
    );
    const endpoint = closeAfterTest(await createWebSocketServer(mcp, { port: 0, heartbeatIntervalMs: 0 }));
    const socket = await rawSocket(endpoint.url);
    const initialized = collect(socket, 1, 5_000);
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      }),
    );
    await initialized;
    socket.removeAllListeners('message');
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

    const count = 32;
    const answered = collect(socket, count, 5_000);
    burst(
      socket,
      Array.from({ length: count }, (_, index) => ({
        jsonrpc: '2.0',
        id: index + 1,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: `t${index + 1}` } },
      })),
    );
    const answers = await answered;
    ticking = false;
    for (let id = 1; id <= count; id++) {
      expect(answers.get(id)).toMatchObject({ result: { content: [{ type: 'text', text: `t${id}` }] } });
    }
    expect(seen.map((entry) => entry.text)).toEqual(Array.from({ length: count }, (_, index) => `t${index + 1}`));
    // One frame per turn would take 32 turns; small answers let a turn take many.
    const turns = new Set(seen.map((entry) => entry.turn)).size;
    expect(turns).toBeLessThan(count / 4);
    socket.close();
  });
});
