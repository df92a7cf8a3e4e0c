import { afterEach, describe, expect, it } from 'vitest';
import { Server } from '../src/index';
import { closeHarnesses, connect, initialize, type Loose, modern, rpcError } from './harness';

afterEach(closeHarnesses);

describe('low-level Server', () => {
  it('runs handlers registered per method, in both eras, with the era rules applied', async () => {
    const server = new Server({ name: 'raw', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', (params, ctx) => ({
      tools: [{ name: `${ctx.era}-${params?.cursor ?? 'first'}`, inputSchema: { type: 'object' } }],
    }));
    const harness = await connect(server, { fixEra: false });
    const fresh = await harness.client.request<Loose>('tools/list', modern());
    expect(fresh).toMatchObject({ resultType: 'complete', tools: [{ name: 'modern-first' }] });
    await initialize(harness.client, '2025-11-25');
    expect(await harness.client.request<Loose>('tools/list', {})).toEqual({
      tools: [{ name: 'legacy-first', inputSchema: { type: 'object' } }],
    });
    // Registered but ungated: prompts/list has a handler nowhere and no capability.
    expect((await rpcError(harness.client.request('prompts/list', {}))).code).toBe(-32601);
  });

  it("serves an application's own methods without MCP gating", async () => {
    const server = new Server({ name: 'raw', version: '1' });
    server.setRequestHandler('x.example/echo', (params) => ({ echoed: params }));
    const harness = await connect(server, { revision: '2025-11-25' });
    await initialize(harness.client, '2025-11-25');
    expect(await harness.client.request('x.example/echo', { a: 1 })).toEqual({ echoed: { a: 1 } });
    // Not an MCP method: the checker flags both the request and its response, which it cannot know.
    const violations = harness.checked.violations;
    expect(violations.every((violation) => violation.problems.join().includes('x.example/echo'))).toBe(true);
    violations.length = 0;
  });

  it('rejects unknown protocol versions in its options', () => {
    expect(() => new Server({ name: 's', version: '1' }, { protocolVersions: ['1999-01-01'] })).toThrow(
      /unknown protocol version/,
    );
  });

  it('close() closes every session', async () => {
    const server = new Server({ name: 's', version: '1' });
    const a = await connect(server);
    const b = await connect(server);
    expect(server.sessions.size).toBe(2);
    await server.close();
    expect(server.sessions.size).toBe(0);
    expect(a.client.connected).toBe(false);
    expect(b.client.connected).toBe(false);
  });

  it('registerCapabilities opens gated methods at once', async () => {
    const server = new Server({ name: 's', version: '1' });
    server.setRequestHandler('prompts/list', () => ({ prompts: [] }));
    const harness = await connect(server);
    expect((await rpcError(harness.client.request('prompts/list', modern()))).code).toBe(-32601);
    server.registerCapabilities({ prompts: {} });
    expect(await harness.client.request<Loose>('prompts/list', modern())).toMatchObject({ prompts: [] });
  });
});
