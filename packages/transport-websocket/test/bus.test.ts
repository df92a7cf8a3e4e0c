import { Client } from '@mcpkit/client';
import { InProcessMessageBus, McpServer } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WebSocketClientTransport } from '../src/index';
import { createWebSocketServer } from '../src/node/index';
import { closeAfterEach, closeAfterTest } from './helpers';

closeAfterEach();

// Two instances of one server behind a shared bus: a client connected to one hears of what the other announces,
// in both eras (a legacy subscription, a 2026-07-28 listen stream).

function instance() {
  const mcp = new McpServer({ name: 'ws-bus', version: '1.0.0' }, { listChangedDebounceMs: 1 });
  mcp.registerResource('status', 'memo://status', {}, (uri) => ({ contents: [{ uri, text: 'ok' }] }));
  return mcp;
}

async function waitFor(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('WebSocket scale-out: the bus option', () => {
  it.each(['legacy', 'modern'] as const)(
    '%s: an update announced on one instance reaches a client of the other',
    async (era) => {
      const bus = new InProcessMessageBus();
      const a = instance();
      const b = instance();
      closeAfterTest(await createWebSocketServer(a, { bus, heartbeatIntervalMs: 0 }));
      const endpointB = closeAfterTest(await createWebSocketServer(b, { bus, heartbeatIntervalMs: 0 }));
      const client = closeAfterTest(new Client({ name: 'c', version: '1' }));
      await client.connect(new WebSocketClientTransport(endpointB.url, { WebSocket }), { era });
      const updates: string[] = [];
      const subscription = await client.subscribe({ resources: ['memo://status'] }, (notification) => {
        if (notification.method === 'notifications/resources/updated') updates.push(notification.params.uri);
      });
      a.notifyResourceUpdated('memo://status');
      await waitFor(() => updates.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(updates).toEqual(['memo://status']);
      await subscription.close();
    },
  );

  it('refuses a bus without a server to share broadcasts of', async () => {
    const bus = new InProcessMessageBus();
    await expect(createWebSocketServer({ connect: instance().connect.bind(instance()) }, { bus })).rejects.toThrow(
      /needs an McpServer or Server/,
    );
  });
});
