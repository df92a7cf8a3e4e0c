import { Client } from '@mcpkit/client';
import { describe, expect, it } from 'vitest';
import { WebSocketClientTransport, WebSocketTransportError } from '../src/index';
import { closeAfterEach, closeAfterTest, startServer } from './helpers';

// What differs between the Node lines `npm test` runs this on (20, 22, 24): Node 22 added a global WHATWG WebSocket
// (undici's), Node 20 has none. The transport's default must work where the global exists, and fail at construction
// naming the fix where it does not — never later, inside connect().

closeAfterEach();

const line = Number(process.versions.node.split('.')[0]);
const hasGlobal = typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'function';

describe(`the default WebSocket on Node ${process.versions.node}`, () => {
  it('Node 22 and later have the global; Node 20 does not', () => {
    expect(hasGlobal).toBe(line >= 22);
  });

  it.runIf(hasGlobal)('connects with the global WebSocket (no option) in both eras', async () => {
    const { endpoint } = await startServer();
    for (const era of ['modern', 'legacy'] as const) {
      const client = closeAfterTest(new Client({ name: 'global-ws', version: '1.0.0' }));
      await client.connect(new WebSocketClientTransport(endpoint.url), { era });
      const result = await client.callTool({ name: 'echo', arguments: { text: `global ${era}` } });
      expect(result.content).toEqual([{ type: 'text', text: `global ${era}` }]);
      expect(client.era).toBe(era);
    }
  });

  it.runIf(!hasGlobal)('without a global, the constructor names the fix', () => {
    let error: unknown;
    try {
      new WebSocketClientTransport('ws://127.0.0.1:1/mcp');
    } catch (caught) {
      error = caught;
    }
    expect(WebSocketTransportError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/pass one: `\{ WebSocket \}` from the ws package/);
  });
});
