// What a remote server asks back crosses `mcpkit connect` to the stdio host and the answers return: elicitation,
// sampling and roots, for each era of the host and of the remote. A 2026-07-28 host answers in input rounds; the
// bridge keeps the remote call running across them, so the remote tool runs once per round of its own, not once per
// round of the host (counted here).
import { McpServer } from '@mcpkit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectThroughBridge, type Remote, serveRemote } from './bridge-harness';

let executions = 0;
let cancelled = 0;
let remote: Remote;

beforeAll(async () => {
  const server = new McpServer({ name: 'asking-remote', version: '1.0.0' });
  server.registerTool('order', { description: 'Asks two questions, one after the other' }, async (_args, ctx) => {
    executions++;
    const dish = await ctx.elicit({
      message: 'Which dish?',
      requestedSchema: { type: 'object', properties: { dish: { type: 'string' } }, required: ['dish'] },
    });
    const size = await ctx.elicit({
      message: 'How many?',
      requestedSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
    });
    return { content: [{ type: 'text', text: `${size.content?.count} × ${dish.content?.dish}` }] };
  });
  server.registerTool('suggest', { description: 'Asks the host model (sampling)' }, async (_args, ctx) => {
    const answer = await ctx.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'Suggest a wine' } }],
      maxTokens: 20,
    });
    return { content: [{ type: 'text', text: `the model says: ${(answer.content as { text?: string }).text}` }] };
  });
  server.registerTool('workspace', { description: "Lists the host's roots" }, async (_args, ctx) => {
    const { roots } = await ctx.listRoots();
    return { content: [{ type: 'text', text: roots.map((root) => root.uri).join(',') }] };
  });
  server.registerTool('chatty', { description: 'Logs while it runs' }, async (_args, ctx) => {
    await ctx.log('info', 'oven at 250°C', 'kitchen');
    await ctx.log('debug', 'below the level', 'kitchen');
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.registerTool('simmer', { description: 'Runs until cancelled' }, async (_args, ctx) => {
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    cancelled++;
    return { content: [{ type: 'text', text: 'off the heat' }] };
  });
  remote = await serveRemote(server);
});

afterAll(async () => {
  await remote?.close();
});

const REMOTES = {
  'a 2025-11-25 remote': { args: ['--protocol-version', '2025-11-25'], runsPerCall: 1 },
  // 2026-07-28 servers replay their handler once per input round of their own: 1 + 2 questions.
  'a 2026-07-28 remote': { args: [], runsPerCall: 3 },
};

describe('mcpkit connect: questions of the remote reach the stdio host', { timeout: 30_000 }, () => {
  for (const hostEra of ['legacy', 'modern'] as const) {
    for (const [name, { args, runsPerCall }] of Object.entries(REMOTES)) {
      it(`a ${hostEra} host in front of ${name}: elicitation (two rounds), sampling, roots, logs, cancellation`, async () => {
        const asked: string[] = [];
        const logs: unknown[] = [];
        const bridge = await connectThroughBridge(remote.url, args, hostEra, {
          onLogMessage: (params) => logs.push(params.data),
          handlers: {
            elicitation: async (params) => {
              asked.push(params.message);
              const content: Record<string, string | number> =
                params.message === 'Which dish?' ? { dish: 'risotto' } : { count: 2 };
              return { action: 'accept', content };
            },
            sampling: async (params) => ({
              role: 'assistant',
              model: 'host-model',
              content: {
                type: 'text',
                text: `Barolo (asked: ${(params.messages[0]?.content as { text?: string } | undefined)?.text})`,
              },
            }),
            roots: async () => ({ roots: [{ uri: 'file:///work/a', name: 'a' }, { uri: 'file:///work/b' }] }),
          },
        });
        try {
          expect(bridge.host.era).toBe(hostEra);
          executions = 0;
          const order = await bridge.host.callTool({ name: 'order' });
          expect(order.content).toEqual([{ type: 'text', text: '2 × risotto' }]);
          expect(asked).toEqual(['Which dish?', 'How many?']);
          // Without the kept call a 2026-07-28 host's three rounds each ran the remote call again from the start.
          expect(executions).toBe(runsPerCall);

          const suggestion = await bridge.host.callTool({ name: 'suggest' });
          expect(suggestion.content).toEqual([
            { type: 'text', text: 'the model says: Barolo (asked: Suggest a wine)' },
          ]);
          const roots = await bridge.host.callTool({ name: 'workspace' });
          expect(roots.content).toEqual([{ type: 'text', text: 'file:///work/a,file:///work/b' }]);

          // The host's log level reaches the remote: what is above it arrives, what is below it is not sent.
          await bridge.host.setLoggingLevel('info');
          await bridge.host.callTool({ name: 'chatty' });
          expect(logs).toEqual(['oven at 250°C']);

          // The host cancelling a call that asked nothing cancels it upstream.
          cancelled = 0;
          const controller = new AbortController();
          const simmering = bridge.host.callTool({ name: 'simmer' }, { signal: controller.signal });
          setTimeout(() => controller.abort(new Error('enough')), 100);
          await expect(simmering).rejects.toThrow();
          const deadline = Date.now() + 5_000;
          while (cancelled === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
          expect(cancelled).toBe(1);
        } finally {
          expect(await bridge.close()).toBe(0);
        }
      });
    }
  }
});
