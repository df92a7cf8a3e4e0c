// What a stdio child asks (elicitation, sampling, roots) crosses `mcpkit serve` to the HTTP client and the answers
// return, for a legacy (session) and a 2026-07-28 client, in front of a child of each era; so does a task. The child counts its runs:
// a 2026-07-28 client's input rounds drive the one forwarded call, they do not run the tool again.
import { Client } from '@mcpkit/client';
import { tasks } from '@mcpkit/tasks/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { afterAll, describe, expect, it } from 'vitest';
import { type Served, startServe } from './bridge-harness';

const CHILD = 'packages/cli/test/fixtures/asking-server.ts';
const bridges: Served[] = [];

afterAll(() => {
  for (const bridge of bridges) bridge.stop();
});

function answeringClient(asked: string[]): Client {
  return new Client(
    { name: 'http-client', version: '1.0.0' },
    {
      handlers: {
        elicitation: async (params) => {
          asked.push(params.message);
          const content: Record<string, string | number> =
            params.message === 'Which dish?'
              ? { dish: 'ossobuco' }
              : params.message === 'Which topping?'
                ? { topping: 'capers' }
                : { count: 3 };
          return { action: 'accept', content };
        },
        sampling: async () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'Amarone' } }),
        roots: async () => ({ roots: [{ uri: 'file:///srv/app' }] }),
      },
    },
  );
}

describe('mcpkit serve: questions of the child reach the HTTP client', { timeout: 60_000 }, () => {
  for (const [childEra, args] of [
    ['a 2025-11-25 child', ['--shared', '--protocol-version', '2025-11-25']],
    ['a 2026-07-28 child', ['--shared']],
  ] as const) {
    it(`legacy and 2026-07-28 clients in front of ${childEra}: elicitation (two rounds), sampling, roots, a task`, async () => {
      const bridge = await startServe([...args], CHILD);
      bridges.push(bridge);
      // The child's own runs per call: 1 for a legacy child; a 2026-07-28 child replays per round of its own (1 + 2).
      const runsPerCall = childEra === 'a 2025-11-25 child' ? 1 : 3;
      let runs = 0;
      for (const era of ['legacy', 'modern'] as const) {
        const asked: string[] = [];
        const client = answeringClient(asked);
        const taskClient = client.extend(tasks());
        await client.connect(new StreamableHttpClientTransport(new URL(bridge.url)), { era });
        expect(client.era).toBe(era);
        const order = await client.callTool({ name: 'order' });
        expect(order.content).toEqual([{ type: 'text', text: '3 × ossobuco' }]);
        expect(asked).toEqual(['Which dish?', 'How many?']);
        runs += runsPerCall;
        expect((await client.callTool({ name: 'runs' })).content).toEqual([{ type: 'text', text: String(runs) }]);
        expect((await client.callTool({ name: 'suggest' })).content).toEqual([
          { type: 'text', text: 'the model says: Amarone' },
        ]);
        expect((await client.callTool({ name: 'workspace' })).content).toEqual([
          { type: 'text', text: 'file:///srv/app' },
        ]);
        // A task, in the client's vocabulary whatever the child's (translated across the eras).
        const task = await taskClient.callToolAsTask({ name: 'bake', arguments: {} });
        expect(task.immediate).toBe(false);
        expect((await task.wait()).content).toEqual([{ type: 'text', text: 'capers pizza' }]);
        await client.close();
      }
    });
  }
});
