import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/index';
import {
  closeHarnesses,
  connect,
  dropClientViolations,
  initialize,
  type Loose,
  modern,
  rpcError,
  sleep,
  until,
} from './harness';

afterEach(closeHarnesses);

const noop = () => ({ content: [] });

describe('handles and list_changed', () => {
  it('enable/disable/update/remove change lists and calls, coalesced into one legacy notification', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { listChangedDebounceMs: 10 });
    const a = server.registerTool('a', { description: 'first' }, () => ({ content: [{ type: 'text', text: 'a1' }] }));
    server.registerTool('b', {}, noop);
    const harness = await connect(server);
    await initialize(harness.client, '2025-06-18');
    const names = async () =>
      ((await harness.client.request<Loose>('tools/list', {})).tools as { name: string }[]).map((tool) => tool.name);
    expect(await names()).toEqual(['a', 'b']);

    a.disable();
    a.disable(); // no-op
    expect(a.enabled).toBe(false);
    expect(await names()).toEqual(['b']);
    expect((await rpcError(harness.client.request('tools/call', { name: 'a' }))).code).toBe(-32602);
    a.enable();
    a.update({ description: 'updated', handler: () => ({ content: [{ type: 'text', text: 'a2' }] }) });
    expect(await names()).toEqual(['a', 'b']); // position kept
    expect((await harness.client.request<Loose>('tools/list', {})).tools[0].description).toBe('updated');
    expect((await harness.client.request<Loose>('tools/call', { name: 'a' })).content[0].text).toBe('a2');
    await until(() => harness.notifications.length > 0);
    await sleep(30);
    // Five changes in one burst: one notification.
    expect(harness.notifications.map((n) => n.method)).toEqual(['notifications/tools/list_changed']);

    a.update({ name: 'a-renamed' });
    expect(await names()).toEqual(['a-renamed', 'b']);
    a.remove();
    expect(await names()).toEqual(['b']);
    expect(() => a.enable()).toThrow(/removed/);
    await until(() => harness.notifications.length === 2);
  });

  it('prompts and resources notify too; nothing is sent to sessions before initialize', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { listChangedDebounceMs: 1 });
    const prompt = server.registerPrompt('p', {}, () => ({ messages: [] }));
    const resource = server.registerResource('r', 'mem://r', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
    const harness = await connect(server);
    prompt.disable();
    await sleep(20);
    expect(harness.notifications).toEqual([]);
    await initialize(harness.client, '2025-11-25');
    prompt.enable();
    resource.update({ description: 'changed' });
    await until(() => harness.notifications.length === 2);
    expect(harness.notifications.map((n) => n.method).sort()).toEqual([
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed',
    ]);
  });

  it('modern: list_changed goes only to listen streams that asked, tagged with the subscription id', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { listChangedDebounceMs: 1 });
    const tool = server.registerTool('t', {}, noop);
    server.registerPrompt('p', {}, () => ({ messages: [] }));
    const harness = await connect(server);
    const controller = new AbortController();
    const listen = harness.client.request(
      'subscriptions/listen',
      modern({ notifications: { toolsListChanged: true, resourcesListChanged: true } }),
      {
        signal: controller.signal,
        timeoutMs: 0,
      },
    );
    listen.catch(() => {});
    await until(() => harness.notifications.length === 1);
    const listenId = 1; // the client's first request
    expect(harness.notifications[0]).toEqual({
      method: 'notifications/subscriptions/acknowledged',
      params: {
        _meta: { 'io.modelcontextprotocol/subscriptionId': listenId },
        notifications: { toolsListChanged: true },
      },
    });
    tool.disable();
    await until(() => harness.notifications.length === 2);
    expect(harness.notifications[1]).toEqual({
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': listenId } },
    });
    controller.abort();
    await until(() => server.server.listenStreams.size === 0);
    tool.enable();
    await sleep(20);
    expect(harness.notifications).toHaveLength(2);
  });
});

describe('pagination', () => {
  it('pages in registration order with opaque cursors', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { pageSize: 3 });
    for (let index = 0; index < 8; index++) server.registerTool(`tool-${index}`, {}, noop);
    const harness = await connect(server);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const result = await harness.client.request<Loose>('tools/list', modern(cursor === undefined ? {} : { cursor }));
      seen.push(...result.tools.map((tool: { name: string }) => tool.name));
      cursor = result.nextCursor;
      if (cursor === undefined) break;
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    }
    expect(seen).toEqual(Array.from({ length: 8 }, (_, index) => `tool-${index}`));
    expect(cursor).toBeUndefined();
  });

  it('rejects tampered and stale cursors with -32602', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { pageSize: 1 });
    server.registerTool('a', {}, noop);
    const b = server.registerTool('b', {}, noop);
    const harness = await connect(server);
    const first = await harness.client.request<Loose>('tools/list', modern());
    const cursor = first.nextCursor as string;
    for (const tampered of ['garbage!', `${cursor}x`, Buffer.from('1:999').toString('base64url'), 42]) {
      const error = await rpcError(harness.client.request('tools/list', modern({ cursor: tampered })));
      expect(error.code, String(tampered)).toBe(-32602);
    }
    b.update({ description: 'changed' });
    const stale = await rpcError(harness.client.request('tools/list', modern({ cursor })));
    expect(stale.code).toBe(-32602);
    expect(stale.data.reason).toBe('stale');
    dropClientViolations(harness); // a numeric cursor breaks the schema on purpose
  });
});
