import { createLinkedTransports, JsonRpcPeer, type PeerHooks } from '@mcpkit/jsonrpc-core';

// Where a progress token travels is the protocol's choice, so the peer asks hooks (MCP's come from @mcpkit/protocol).
const hooks: PeerHooks = {
  attachProgressToken: (params, token) => ({ ...(params as object), _meta: { progressToken: token } }),
  readProgress: (method, params) => {
    if (method !== 'progress') return undefined;
    const { token, ...progress } = params as { token: string | number; done: number; total: number };
    return { token, progress };
  },
};

const server = new JsonRpcPeer({ hooks });
server.setRequestHandler('count', async (params, ctx) => {
  const { to, _meta } = params as { to: number; _meta?: { progressToken?: string | number } };
  for (let done = 1; done <= to; done++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    const token = _meta?.progressToken;
    if (token !== undefined) await ctx.notify('progress', { token, done, total: to });
  }
  return { counted: to };
});

const client = new JsonRpcPeer({ hooks });
const [clientTransport, serverTransport] = createLinkedTransports();
await server.connect(serverTransport);
await client.connect(clientTransport);

const result = await client.request(
  'count',
  { to: 3 },
  {
    timeoutMs: 1_000, // idle timeout: restarted by every progress notification
    maxTotalTimeoutMs: 30_000, // hard cap, whatever the progress
    onProgress: (progress) => console.log('progress', progress), // { done: 1, total: 3 } … { done: 3, total: 3 }
  },
);
console.log('result', result); // result { counted: 3 }
await client.close(); // closes both ends of the linked pair
