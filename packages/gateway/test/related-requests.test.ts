import { Client } from '@mcpkit/client';
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import type { LoggingMessageNotificationParams } from '@mcpkit/protocol';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { afterEach, describe, expect, it } from 'vitest';
import { Gateway } from '../src/index';
import { upstream as httpUpstream } from '../src/node/index';
import { LEGACY, MODERN } from './harness';

// A legacy upstream's questions and log messages name no request of ours, but over Streamable HTTP they come on the
// response stream of the call they belong to: the transport says which (`MessageInfo.relatedRequestId`), so with
// several calls in flight on one mount each question and each log entry still reaches its own caller.

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

/** A legacy upstream whose `who` tool waits until `expected` calls are in, then logs and asks, each call its own. */
async function legacyUpstream(expected: number) {
  const server = new McpServer({ name: 'people', version: '1.0.0' });
  let arrived = 0;
  let allIn!: () => void;
  const together = new Promise<void>((resolve) => {
    allIn = resolve;
  });
  server.registerTool(
    'who',
    { description: 'Asks who is calling', inputSchema: { type: 'object', properties: { call: { type: 'string' } } } },
    async (args, ctx) => {
      arrived += 1;
      if (arrived === expected) allIn();
      await together;
      await ctx.log('info', `working on ${String(args.call)}`);
      const answer = await ctx.elicit({
        message: `Who made call ${String(args.call)}?`,
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
      return { content: [{ type: 'text', text: `${String(args.call)} by ${String(answer.content?.name)}` }] };
    },
  );
  const listening = await listen(createStreamableHttpHandler(server), { port: 0, host: '127.0.0.1' });
  open.push(() => listening.close());
  return listening.url;
}

describe('a legacy upstream over Streamable HTTP, several calls in flight on one mount', () => {
  it('sends each question and each log entry to the caller whose call it belongs to', async () => {
    const url = await legacyUpstream(2);
    const front = new McpServer({ name: 'front', version: '1.0.0' });
    const gateway = new Gateway(front, { tasks: false });
    const mount = await gateway.mount('up', httpUpstream({ url, connect: { protocolVersion: LEGACY } }));
    expect(mount.status).toBe('up');
    open.push(() => gateway.close());

    // Two callers, one of each era, on their own connections to the gateway.
    const callers = await Promise.all(
      [
        { name: 'Ada', version: LEGACY },
        { name: 'Grace', version: MODERN },
      ].map(async ({ name, version }) => {
        const logs: LoggingMessageNotificationParams[] = [];
        const asked: string[] = [];
        const client = new Client(
          { name, version: '1.0.0' },
          {
            onLogMessage: (entry) => logs.push(entry),
            handlers: {
              elicitation: (params) => {
                asked.push(params.message);
                return { action: 'accept', content: { name } };
              },
            },
          },
        );
        const [clientSide, serverSide] = createLinkedTransports();
        await front.connect(serverSide);
        await client.connect(clientSide, { protocolVersion: version });
        open.push(() => client.close());
        return { name, client, logs, asked };
      }),
    );
    const [ada, grace] = callers as [(typeof callers)[0], (typeof callers)[0]];
    const [adas, graces] = await Promise.all([
      ada.client.callTool({ name: 'up_who', arguments: { call: 'A' } }),
      grace.client.callTool({ name: 'up_who', arguments: { call: 'G' } }, { logLevel: 'info' }),
    ]);
    expect(adas.content).toEqual([{ type: 'text', text: 'A by Ada' }]);
    expect(graces.content).toEqual([{ type: 'text', text: 'G by Grace' }]);
    expect(ada.asked).toEqual(['Who made call A?']);
    expect(grace.asked).toEqual(['Who made call G?']);
    expect(ada.logs.map((entry) => entry.data)).toEqual(['working on A']);
    // A 2026-07-28 caller answers in an input round, and on its retry the gateway calls the upstream again (README:
    // era translation): that upstream run logs again, to the same caller.
    expect(new Set(grace.logs.map((entry) => entry.data))).toEqual(new Set(['working on G']));
  });
});
