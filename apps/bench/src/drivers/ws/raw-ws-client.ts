// The WebSocket floor's client: a bare `ws` socket, JSON-RPC by hand (`initialize`, `notifications/initialized`, then
// `tools/call`), no SDK and no validation beyond matching ids; with the bare `ws` server (raw-ws-server.ts) it is what
// ws and Node themselves cost per call, as the stdio floor is for pipes. One frame per message, as ws writes it.
import { createRequire } from 'node:module';
import type { WebSocket as WsSocket } from 'ws';
import { runConcurrentDriver } from '../concurrent';

await runConcurrentDriver(async (config) => {
  if (config.wsModule === undefined) throw new Error('the WebSocket driver needs `wsModule` (the path of ws)');
  const { WebSocket } = createRequire(import.meta.url)(config.wsModule) as { WebSocket: typeof WsSocket };
  const socket = new WebSocket(config.url, ['mcp'], { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const waiting = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: unknown };
    if (message.id === undefined) return;
    waiting.get(message.id)?.(message.result ?? message.error);
    waiting.delete(message.id);
  });
  const request = (method: string, params: unknown): Promise<unknown> =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench-raw-ws-client', version: '1.0.0' },
  });
  socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const callText = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = (await request('tools/call', { name, arguments: args })) as {
      content?: { type: string; text?: string }[];
    };
    const first = result.content?.[0];
    return first?.type === 'text' ? (first.text ?? '') : '';
  };
  return {
    call: (text) => callText('echo', { text }),
    big: (bytes) => callText('big', { bytes }),
    close: async () => {
      if (socket.readyState === WebSocket.CLOSED) return;
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.close(1000);
      await closed;
    },
  };
});
