import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { honoApp } from '../src/hono';
import { bundleWorker, type RunningWorkers, startWorkers } from './workerd';

// The MCP endpoint as a route of a Hono app: on Node (@hono/node-server) and on Workers (workerd), both eras.

let nodeUrl: URL;
let closeNode: () => Promise<void>;
let workers: RunningWorkers;
beforeAll(async () => {
  const server = serve({ fetch: honoApp().fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  nodeUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  closeNode = () => new Promise((resolve) => server.close(() => resolve()));
  workers = await startWorkers(await bundleWorker('test/fixtures/hono-worker.ts'));
}, 30_000);
afterAll(async () => {
  await closeNode?.();
  await workers?.dispose();
});

function textOf(result: unknown): string {
  return (result as { content: Array<{ text: string }> }).content[0]!.text;
}

const targets = {
  node: () => ({ url: nodeUrl, fetch: globalThis.fetch }),
  workerd: () => ({ url: workers.url, fetch: workers.fetchVia('a') }),
};

for (const [where, target] of Object.entries(targets)) {
  describe(`a Hono route on ${where}`, () => {
    for (const era of ['modern', 'legacy'] as const) {
      it(`answers our client (${era})`, async () => {
        const { url, fetch } = target();
        const client = new Client(
          { name: 'edge-test', version: '1.0.0' },
          { handlers: { elicitation: () => ({ action: 'accept', content: { goOn: true } }) } },
        );
        await client.connect(
          new StreamableHttpClientTransport(url, { fetch }),
          era === 'modern' ? { era: 'modern' } : { protocolVersion: '2025-11-25' },
        );
        expect(textOf(await client.callTool({ name: 'runtime' }))).toBe(where);
        expect(textOf(await client.callTool({ name: 'confirm' }))).toBe('going on');
        await client.close();
      });
    }

    it('leaves the app’s other routes to the app', async () => {
      const { url, fetch } = target();
      const response = await fetch(new URL('/', url));
      expect(await response.text()).toBe('edge-demo: MCP at /mcp');
    });
  });
}
