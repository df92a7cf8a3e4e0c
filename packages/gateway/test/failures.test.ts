import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it } from 'vitest';
import { gatewayWithClient, LEGACY, MODERN, memoryUpstream, sampleUpstream, until } from './harness';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A gateway with two mounts, `up` (the one that fails) and `other` (which must keep working). */
async function twoMounts(version: string, failNext = 0) {
  const front = await gatewayWithClient(version);
  const failing = sampleUpstream('failing');
  const healthy = sampleUpstream('healthy');
  const memory = memoryUpstream(failing.server, LEGACY);
  memory.state.failNext = failNext;
  cleanups.push(async () => {
    await front.client.close();
    await front.gateway.close();
    await front.front.close();
    await failing.server.close();
    await healthy.server.close();
  });
  const other = await front.gateway.mount('other', memoryUpstream(healthy.server, MODERN).connection);
  const mount = await front.gateway.mount('up', memory.connection, {
    reconnect: { initialDelayMs: 20, maxDelayMs: 80 },
  });
  await front.connectClient();
  const listChanged: number[] = [];
  const subscription = await front.client.subscribe({ toolsListChanged: true }, () => listChanged.push(Date.now()));
  cleanups.push(() => subscription.close());
  const toolNames = async () => (await front.client.listAllTools()).map((tool) => tool.name).sort();
  return { ...front, failing, memory, mount, other, listChanged, toolNames };
}

describe.each([
  ['legacy', LEGACY],
  ['modern', MODERN],
])('upstream failures, %s client', (_era, version) => {
  it('an upstream down at start is mounted down, reconnects with backoff, then its tools appear', async () => {
    const setup = await twoMounts(version, 3);
    expect(setup.mount.status).toBe('down');
    expect(await setup.toolNames()).toEqual(['other_ask', 'other_echo', 'other_slow']);
    // The other mount works while this one is down.
    const echoed = await setup.client.callTool({ name: 'other_echo', arguments: { text: 'still here' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'still here' }]);
    await setup.mount.ready;
    expect(setup.mount.status).toBe('up');
    expect(setup.memory.state.attempts).toBe(4);
    await until(() => setup.listChanged.length > 0, 'list_changed');
    expect(await setup.toolNames()).toContain('up_echo');
  });

  it('an upstream dying mid-call fails the call naming the mount, drops its tools once, and comes back', async () => {
    const setup = await twoMounts(version);
    const call = setup.client.callTool({ name: 'up_slow', arguments: {} });
    await until(() => setup.failing.server.sessions.size > 0, 'the upstream session');
    await new Promise((resolve) => setTimeout(resolve, 30));
    setup.memory.state.failNext = 2;
    await setup.memory.serverSides[0]?.close();
    await expect(call).rejects.toSatisfy(
      (error: unknown) => JsonRpcError.is(error) && /mount 'up'/.test(error.message),
    );
    await until(async () => !(await setup.toolNames()).includes('up_echo'), 'the tools to go');
    expect(await setup.toolNames()).toEqual(['other_ask', 'other_echo', 'other_slow']);
    await until(() => setup.listChanged.length > 0, 'list_changed');
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Three tools went at once: one list_changed.
    expect(setup.listChanged).toHaveLength(1);
    const echoed = await setup.client.callTool({ name: 'other_echo', arguments: { text: 'unaffected' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'unaffected' }]);
    await setup.mount.ready;
    await until(async () => (await setup.toolNames()).includes('up_echo'), 'the tools to come back');
    const again = await setup.client.callTool({ name: 'up_echo', arguments: { text: 'back' } });
    expect(again.content).toEqual([{ type: 'text', text: 'back' }]);
  });
});

describe('an upstream slow to come back', () => {
  it('is retried with growing delays, then left down after maxAttempts', async () => {
    const front = await gatewayWithClient(MODERN);
    const failing = sampleUpstream('never');
    cleanups.push(async () => {
      await front.gateway.close();
      await front.front.close();
      await failing.server.close();
    });
    const memory = memoryUpstream(failing.server, LEGACY);
    memory.state.failNext = 100;
    const started = Date.now();
    const mount = await front.gateway.mount('up', memory.connection, {
      reconnect: { initialDelayMs: 20, maxDelayMs: 40, maxAttempts: 3 },
    });
    await until(() => memory.state.attempts === 4, 'four attempts');
    // 20, 40, 40 ms (each between half and all of it): at least 50 ms in all.
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(memory.state.attempts).toBe(4);
    expect(mount.status).toBe('down');
    expect(front.warnings.filter((warning) => warning.includes('down'))).toHaveLength(4);
  });
});

describe('an upstream returning garbage', () => {
  it('skips the items it cannot expose and fails a malformed result without taking the gateway down', async () => {
    const front = await gatewayWithClient(MODERN);
    const upstream = sampleUpstream();
    cleanups.push(async () => {
      await front.client.close();
      await front.gateway.close();
      await front.front.close();
      await upstream.server.close();
    });
    // A tool name the front server refuses (SEP-986), and a tools/call result with no content array.
    upstream.server.registerTool('fine', { description: 'ok' }, () => ({ content: [] }));
    upstream.server.use('tools/list', async (_ctx, next) => {
      const result = (await next()) as { tools: unknown[] };
      return { ...result, tools: [...result.tools, { name: 'bad name!', inputSchema: { type: 'object' } }] };
    });
    upstream.server.use('tools/call', async (ctx, next) =>
      (ctx.params as { name?: string }).name === 'echo' ? { content: 'not a list' } : next(),
    );
    const mount = await front.gateway.mount('up', memoryUpstream(upstream.server, LEGACY).connection);
    await front.connectClient();
    expect(mount.status).toBe('up');
    expect(front.warnings.some((warning) => warning.includes('bad name!'))).toBe(true);
    const names = (await front.client.listAllTools()).map((tool) => tool.name);
    expect(names).toContain('up_fine');
    expect(names).not.toContain('up_bad name!');
    // The front server checks what it sends: the malformed result becomes an error result, the session lives on.
    const garbage = await front.client.callTool({ name: 'up_echo', arguments: { text: 'x' } });
    expect(garbage.isError).toBe(true);
    expect(JSON.stringify(garbage.content)).toMatch(/invalid result/);
    const fine = await front.client.callTool({ name: 'up_fine', arguments: {} });
    expect(fine.content).toEqual([]);
  });
});
