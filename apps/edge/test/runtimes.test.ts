import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import {
  Client as OfficialClientV2,
  StreamableHTTPClientTransport as OfficialTransportV2,
} from '@modelcontextprotocol/client';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as OfficialTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRuntime, runtimeBinary, startRuntime } from './runtimes';

// The edge app's server on Bun (Bun.serve) and Deno (Deno.serve), from the npm binaries, each started once; our client
// and the official SDK's client talk to it in both eras.

const tmp = mkdtempSync(join(tmpdir(), 'mcpkit-edge-runtimes-'));
const running: Partial<Record<'bun' | 'deno', RunningRuntime>> = {};
beforeAll(async () => {
  await Promise.all(
    (['bun', 'deno'] as const).map(async (runtime) => {
      const binary = runtimeBinary(runtime);
      if (binary !== undefined) running[runtime] = await startRuntime(runtime, binary, tmp);
    }),
  );
}, 40_000);
afterAll(async () => {
  await Promise.all(Object.values(running).map((runtime) => runtime.stop()));
  rmSync(tmp, { recursive: true, force: true });
});

function textOf(result: unknown): string {
  return (result as { content: Array<{ text: string }> }).content[0]!.text;
}

for (const runtime of ['bun', 'deno'] as const) {
  // Only Linux x64/arm64 binaries are wired here; elsewhere the package ships another platform's binary.
  describe.skipIf(runtimeBinary(runtime) === undefined)(`${runtime}`, () => {
    const url = () => running[runtime]!.url;

    it('answers our client in the 2026-07-28 era', async () => {
      const client = new Client({ name: 'edge-test', version: '1.0.0' });
      await client.connect(new StreamableHttpClientTransport(url()), { era: 'modern' });
      expect(textOf(await client.callTool({ name: 'runtime' }))).toBe(runtime);
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } }))).toBe('42');
      await client.close();
    });

    it('answers our client in a legacy session, with elicitation', async () => {
      const client = new Client(
        { name: 'edge-test', version: '1.0.0' },
        { handlers: { elicitation: () => ({ action: 'accept', content: { goOn: true } }) } },
      );
      const transport = new StreamableHttpClientTransport(url());
      await client.connect(transport, { protocolVersion: '2025-11-25' });
      expect(transport.sessionId).toBeDefined();
      expect(textOf(await client.callTool({ name: 'confirm' }))).toBe('going on');
      await client.close();
    });

    it('answers the official SDK client (2025-11-25 session), with elicitation and progress', async () => {
      const client = new OfficialClient({ name: 'official', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { goOn: false } }));
      const transport = new OfficialTransport(url());
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('edge-demo');
      expect(textOf(await client.callTool({ name: 'runtime', arguments: {} }))).toBe(runtime);
      expect(textOf(await client.callTool({ name: 'confirm', arguments: {} }))).toBe('stopped');
      const progress: number[] = [];
      const result = await client.callTool({ name: 'countdown', arguments: { from: 3, stepMs: 5 } }, undefined, {
        onprogress: (update) => progress.push(update.progress),
      });
      expect(textOf(result)).toBe('liftoff');
      expect(progress).toEqual([1, 2, 3]);
      await transport.terminateSession();
      await client.close();
    });

    it('answers the official SDK 2.x client, negotiating (auto) to the 2026-07-28 era', async () => {
      const client = new OfficialClientV2(
        { name: 'official-v2', version: '1.0.0' },
        { versionNegotiation: { mode: 'auto' } },
      );
      await client.connect(new OfficialTransportV2(url()));
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } }))).toBe('2');
      await client.close();
    });
  });
}
