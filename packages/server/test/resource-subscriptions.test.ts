import { afterEach, describe, expect, it } from 'vitest';
import { installResourceSubscriptions, McpToolServer, resourceSubscriptionsOf, Server } from '../src/index';
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

function lowLevel(): Server {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { resources: { subscribe: true } } });
  server.setRequestHandler('resources/list', () => ({ resources: [] }));
  return server;
}

describe('resource subscriptions', () => {
  it('a tools-only server has none: resources/subscribe is not a method it answers', async () => {
    const server = new McpToolServer({ name: 's', version: '1' });
    const harness = await connect(server.server);
    await initialize(harness.client, '2025-06-18');
    const error = await rpcError(harness.client.request('resources/subscribe', { uri: 'mem://a' }));
    expect(error.code).toBe(-32601);
    expect('notifyResourceUpdated' in server).toBe(false);
  });

  it('a low-level Server answers them once installed; its sessions hold no set until they subscribe', async () => {
    const server = lowLevel();
    installResourceSubscriptions(server);
    const harness = await connect(server);
    await initialize(harness.client, '2025-06-18');
    const empty = resourceSubscriptionsOf(harness.session);
    expect(empty.size).toBe(0);
    await harness.client.request('resources/subscribe', { uri: 'mem://a' });
    await harness.client.request('resources/subscribe', { uri: 'mem://a' });
    expect([...resourceSubscriptionsOf(harness.session)]).toEqual(['mem://a']);
    server.notifyResourceUpdated('mem://b');
    server.notifyResourceUpdated('mem://a');
    await until(() => harness.notifications.length === 1);
    expect(harness.notifications[0]).toEqual({ method: 'notifications/resources/updated', params: { uri: 'mem://a' } });
    await harness.client.request('resources/unsubscribe', { uri: 'mem://a' });
    expect(resourceSubscriptionsOf(harness.session).size).toBe(0);
    const error = await rpcError(harness.client.request('resources/subscribe', {}));
    expect(error).toMatchObject({ code: -32602, message: 'resources/subscribe needs params.uri (a string)' });
    dropClientViolations(harness); // the request without a uri was on purpose
  });

  it('a low-level Server reaches 2026-07-28 listen streams that name the URI', async () => {
    const server = lowLevel();
    installResourceSubscriptions(server);
    const harness = await connect(server);
    const listen = harness.client.request<Loose>(
      'subscriptions/listen',
      modern({ notifications: { resourceSubscriptions: ['mem://a'] } }),
      { timeoutMs: 0 },
    );
    await until(() => harness.notifications.length === 1);
    server.notifyResourceUpdated('mem://b');
    server.notifyResourceUpdated('mem://a');
    await until(() => harness.notifications.length === 2);
    expect(harness.notifications[1]).toMatchObject({
      method: 'notifications/resources/updated',
      params: { uri: 'mem://a', _meta: { 'io.modelcontextprotocol/subscriptionId': 1 } },
    });
    server.closeSubscriptions();
    await listen;
  });

  it('without them, notifyResourceUpdated tells nobody and throws nothing', async () => {
    const server = lowLevel();
    const harness = await connect(server);
    await initialize(harness.client, '2025-06-18');
    expect((await rpcError(harness.client.request('resources/subscribe', { uri: 'mem://a' }))).code).toBe(-32601);
    server.notifyResourceUpdated('mem://a');
    await sleep(10);
    expect(harness.notifications).toEqual([]);
  });
});
