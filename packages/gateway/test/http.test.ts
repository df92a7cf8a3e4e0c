import { Client } from '@mcpkit/client';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { type ListeningServer, listen } from '@mcpkit/transport-http/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../src/index';
import { upstream } from '../src/node/index';
import { PAIRINGS, sampleUpstream } from './harness';

// Both hops over real Streamable HTTP: the questions a legacy upstream asks travel as server→client requests on the
// call's SSE stream, a modern one's as input_required rounds; and the downstream's credentials stop at the gateway.

const upstreamServer = sampleUpstream();
const upstreamAuthorization: (string | undefined)[] = [];
upstreamServer.server.use(async (ctx, next) => {
  upstreamAuthorization.push(ctx.info.request?.headers?.authorization);
  return next();
});
const frontAuthorization: (string | undefined)[] = [];
let upstreamHttp: ListeningServer;
const fronts: { listening: ListeningServer; gateway: Gateway; server: McpServer }[] = [];

beforeAll(async () => {
  upstreamHttp = await listen(createStreamableHttpHandler(upstreamServer.server), { port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  for (const front of fronts) {
    await front.gateway.close();
    await front.listening.close();
  }
  await upstreamHttp.close();
});

async function frontFor(upstreamVersion: string) {
  const server = new McpServer({ name: 'front', version: '1.0.0' });
  server.use(async (ctx, next) => {
    frontAuthorization.push(ctx.info.request?.headers?.authorization);
    return next();
  });
  const gateway = new Gateway(server);
  await gateway.mount('up', upstream({ url: upstreamHttp.url, connect: { protocolVersion: upstreamVersion } }));
  const listening = await listen(createStreamableHttpHandler(server), { port: 0, host: '127.0.0.1' });
  fronts.push({ listening, gateway, server });
  return listening.url;
}

describe.each(PAIRINGS)('over HTTP both ways: $name', (pairing) => {
  it('forwards a call whose upstream asks the downstream user, and never forwards the caller’s token', async () => {
    const url = await frontFor(pairing.upstream);
    const events: string[] = [];
    const client = new Client(
      { name: 'downstream', version: '1.0.0' },
      {
        onLogMessage: (entry) => events.push(`log ${entry.level}`),
        handlers: {
          elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
          sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' }),
          roots: () => ({ roots: [{ uri: 'file:///work' }] }),
        },
      },
    );
    await client.connect(
      new StreamableHttpClientTransport(url, { headers: { authorization: 'Bearer downstream-secret' } }),
      { protocolVersion: pairing.downstream },
    );
    try {
      const progress: number[] = [];
      const echoed = await client.callTool(
        { name: 'up_echo', arguments: { text: 'over http' } },
        { onProgress: (update) => progress.push(update.progress), logLevel: 'debug' },
      );
      events.push('result');
      expect(echoed.content).toEqual([{ type: 'text', text: 'over http' }]);
      expect(progress).toEqual([1]);
      // Every log entry of the call arrives before its result (a legacy caller hears everything until it sets a level).
      expect(events).toEqual(['log info', 'log debug', 'result']);
      const asked = await client.callTool({ name: 'up_ask', arguments: {} });
      expect(asked.content).toEqual([{ type: 'text', text: 'hello Ada, ok, file:///work' }]);
    } finally {
      await client.close();
    }
    expect(frontAuthorization).toContain('Bearer downstream-secret');
    expect(upstreamAuthorization.length).toBeGreaterThan(0);
    expect(upstreamAuthorization.every((header) => header === undefined)).toBe(true);
  });
});
