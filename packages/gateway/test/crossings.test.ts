import type { LoggingMessageNotificationParams } from '@mcpkit/protocol';
import { McpServer } from '@mcpkit/server';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertWireClean,
  gatewayWithClient,
  LEGACY,
  MODERN,
  memoryUpstream,
  mounted,
  OLDEST,
  PAIRINGS,
  until,
} from './harness';

type Setup = Awaited<ReturnType<typeof mounted>>;
const open: Setup[] = [];
afterEach(async () => {
  for (const setup of open.splice(0)) {
    await setup.client.close();
    await setup.gateway.close();
    await setup.front.close();
    await setup.upstream.server.close();
  }
  assertWireClean();
});

async function start(
  pairing: { downstream: string; upstream: string; name: string },
  options: Parameters<typeof mounted>[1] = {},
) {
  const setup = await mounted(pairing, options);
  open.push(setup);
  return setup;
}

describe.each(PAIRINGS)('$name', (pairing) => {
  it('lists the upstream under its namespace and forwards a call with its progress and log messages', async () => {
    const logs: LoggingMessageNotificationParams[] = [];
    const { client } = await start(pairing, { onLogMessage: (entry) => logs.push(entry) });
    const tools = await client.listAllTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['up_ask', 'up_echo', 'up_slow']);
    expect(tools.find((tool) => tool.name === 'up_echo')?.inputSchema).toEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    if (client.era === 'legacy') await client.setLoggingLevel('info');
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'up_echo', arguments: { text: 'hi' } },
      { onProgress: (update) => progress.push(update.progress), logLevel: 'info' },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(progress).toEqual([1]);
    // The downstream's level (info) applies: the upstream's debug entry does not reach it.
    await until(() => logs.length > 0, 'the log entry');
    expect(logs.map((entry) => [entry.level, entry.data])).toEqual([['info', { said: 'hi' }]]);
  });

  it('asks the downstream client when the upstream elicits, samples and lists roots', async () => {
    const { client } = await start(pairing, {
      handlers: {
        elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
        sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' }),
        roots: () => ({ roots: [{ uri: 'file:///work' }] }),
      },
    });
    const result = await client.callTool({ name: 'up_ask', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada, ok, file:///work' }]);
  });

  it('cancels the upstream call when the downstream caller aborts', async () => {
    const { client, upstream } = await start(pairing);
    const controller = new AbortController();
    const call = client.callTool({ name: 'up_slow', arguments: {} }, { signal: controller.signal });
    await until(() => upstream.server.sessions.size > 0, 'the upstream session');
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(() => upstream.seen.cancelled === 1, 'the upstream cancellation');
  });

  it('gets prompts, completes their arguments and template variables', async () => {
    const { client } = await start(pairing);
    expect((await client.listAllPrompts()).map((prompt) => prompt.name)).toEqual(['up_greet']);
    const prompt = await client.getPrompt({ name: 'up_greet', arguments: { who: 'Ada' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello Ada' });
    const names = await client.complete({
      ref: { type: 'ref/prompt', name: 'up_greet' },
      argument: { name: 'who', value: 'al' },
    });
    expect(names.completion.values).toEqual(['alice', 'albert']);
    const files = await client.complete({
      ref: { type: 'ref/resource', uri: 'up+file:///files/{name}' },
      argument: { name: 'name', value: 'x' },
    });
    expect(files.completion.values).toEqual(['x.txt']);
  });

  it('reads resources and templates under the rewritten URI, which maps back exactly', async () => {
    const { client } = await start(pairing);
    const resources = await client.listAllResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['up+file:///notes/a b.txt']);
    const templates = await client.listAllResourceTemplates();
    expect(templates.map((template) => template.uriTemplate)).toEqual(['up+file:///files/{name}']);
    const note = await client.readResource({ uri: 'up+file:///notes/a b.txt' });
    expect(note.contents).toEqual([{ uri: 'up+file:///notes/a b.txt', text: 'note A' }]);
    const file = await client.readResource({ uri: 'up+file:///files/q%20r.txt' });
    expect(file.contents).toEqual([{ uri: 'up+file:///files/q%20r.txt', text: 'file q r.txt' }]);
  });

  it('passes list changes on as one list_changed and resource updates to subscribers', async () => {
    const { client, upstream } = await start(pairing);
    const seen: string[] = [];
    const subscription = await client.subscribe(
      { toolsListChanged: true, resources: ['up+file:///notes/a b.txt'] },
      (notification) => {
        seen.push(
          notification.method === 'notifications/resources/updated'
            ? `updated ${notification.params.uri}`
            : notification.method,
        );
      },
    );
    upstream.server.registerTool('late', { description: 'Added later' }, () => ({ content: [] }));
    upstream.server.registerTool('later', { description: 'Added later still' }, () => ({ content: [] }));
    await until(async () => (await client.listAllTools()).some((tool) => tool.name === 'up_later'), 'the new tools');
    await until(() => seen.includes('notifications/tools/list_changed'), 'list_changed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Two upstream registrations, one upstream list_changed, one re-sync: the downstream hears of it once.
    expect(seen.filter((method) => method === 'notifications/tools/list_changed')).toHaveLength(1);
    upstream.server.notifyResourceUpdated('file:///notes/a b.txt');
    await until(() => seen.includes('updated up+file:///notes/a b.txt'), 'the resource update');
    await subscription.close();
  });
});

describe.each(PAIRINGS)('$name: a change that changes back', (pairing) => {
  it('still reaches the caller, once', async () => {
    const { client, upstream } = await start(pairing);
    const tool = upstream.server.registerTool('flicker', { description: 'comes and goes' }, () => ({ content: [] }));
    await until(async () => (await client.listAllTools()).some((item) => item.name === 'up_flicker'), 'the tool');
    // The list_changed of the registration itself goes out after the registry changed: let it pass first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const seen: string[] = [];
    const subscription = await client.subscribe({ toolsListChanged: true }, (notification) => {
      seen.push(notification.method);
    });
    tool.disable();
    tool.enable();
    await until(() => seen.length > 0, 'list_changed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual(['notifications/tools/list_changed']);
    await subscription.close();
  });
});

describe('era translation', () => {
  it('a modern client reaches a 2024-11-05 upstream', async () => {
    const setup = await start({ downstream: MODERN, upstream: OLDEST, name: 'modern → 2024-11-05' });
    expect(setup.mount.client?.protocolVersion).toBe(OLDEST);
    const result = await setup.client.callTool({ name: 'up_echo', arguments: { text: 'old' } });
    expect(result.content).toEqual([{ type: 'text', text: 'old' }]);
    const note = await setup.client.readResource({ uri: 'up+file:///notes/a b.txt' });
    expect(note.contents).toEqual([{ uri: 'up+file:///notes/a b.txt', text: 'note A' }]);
  });

  it('a legacy client reaches a 2026-07-28-only upstream, its questions asked as server→client requests', async () => {
    const only = new McpServer({ name: 'modern-only', version: '1.0.0' }, { protocolVersions: [MODERN] });
    only.registerTool('confirm', { description: 'Asks first' }, async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'Sure?',
        requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } } },
      });
      return { content: [{ type: 'text', text: `sure: ${String(answer.content?.sure)}` }] };
    });
    const setup = await gatewayWithClient(LEGACY, {
      handlers: { elicitation: () => ({ action: 'accept', content: { sure: true } }) },
    });
    const mount = await setup.gateway.mount('m', memoryUpstream(only, 'auto').connection);
    await setup.connectClient();
    try {
      expect(mount.client?.protocolVersion).toBe(MODERN);
      expect(setup.client.protocolVersion).toBe(LEGACY);
      const result = await setup.client.callTool({ name: 'm_confirm', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'sure: true' }]);
    } finally {
      await setup.client.close();
      await setup.gateway.close();
      await setup.front.close();
      await only.close();
    }
  });

  it('passes a modern upstream’s caching hints to a modern client and drops them for a legacy one', async () => {
    for (const downstream of [MODERN, LEGACY]) {
      const setup = await start({ downstream, upstream: MODERN, name: 'hints' });
      setup.upstream.server.registerResource(
        'cached',
        'file:///cached.txt',
        { cache: { ttlMs: 60_000, cacheScope: 'public' } },
        (uri) => ({ contents: [{ uri, text: 'cached' }] }),
      );
      await until(async () => (await setup.client.listAllResources()).length === 2, 'the new resource');
      const read = (await setup.client.request('resources/read', { uri: 'up+file:///cached.txt' })) as Record<
        string,
        unknown
      >;
      if (downstream === MODERN) expect([read.ttlMs, read.cacheScope]).toEqual([60_000, 'public']);
      else expect('ttlMs' in read || 'cacheScope' in read || 'resultType' in read).toBe(false);
    }
  });
});
