import type { JsonRpcPeer, RequestContext, Transport } from '@mcpkit/jsonrpc-core';
import { CapabilityError } from '@mcpkit/protocol';
import { describe, expect, it } from 'vitest';
import { McpClientError, type SubscriptionNotification } from '../src/index';
import { harness, legacyServer, metaOf, modernServer, until } from './helpers/harness';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

interface Listen {
  ctx: RequestContext;
  filter: Record<string, unknown>;
  finish: (result: unknown) => void;
}

/** A modern server whose listen streams the test drives. */
function listeningServer(
  listens: Listen[],
  honour: (filter: Record<string, unknown>) => Record<string, unknown> = (f) => f,
) {
  return (peer: JsonRpcPeer) => {
    modernServer(peer, {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true },
    });
    peer.setRequestHandler('subscriptions/listen', async (params, ctx) => {
      const filter = (params as { notifications: Record<string, unknown> }).notifications;
      await ctx.notify('notifications/subscriptions/acknowledged', {
        _meta: { [SUBSCRIPTION_ID]: ctx.requestId },
        notifications: honour(filter),
      });
      return new Promise((resolve) => {
        listens.push({ ctx, filter, finish: resolve });
      });
    });
  };
}

/** A modern server that takes listen requests and never acknowledges them. */
function silentListenServer(peer: JsonRpcPeer): void {
  modernServer(peer, {});
  peer.setRequestHandler('subscriptions/listen', () => new Promise(() => {}));
}

describe('subscriptions (2026-07-28: subscriptions/listen)', () => {
  it('opens a listen stream, resolves on acknowledgement and demultiplexes by subscriptionId', async () => {
    const listens: Listen[] = [];
    const h = await harness({
      server: listeningServer(listens, (filter) => {
        const { promptsListChanged: _dropped, ...rest } = filter;
        return rest;
      }),
    });
    const toolsSeen: SubscriptionNotification[] = [];
    const resourceSeen: SubscriptionNotification[] = [];
    const tools = await h.client.subscribe({ toolsListChanged: true, promptsListChanged: true }, (n) =>
      toolsSeen.push(n),
    );
    const resources = await h.client.subscribe({ resources: ['file:///log'] }, (n) => resourceSeen.push(n));
    expect(tools.honoured).toEqual({ toolsListChanged: true });
    expect(resources.honoured).toEqual({ resources: ['file:///log'] });
    const listenRequests = h.requests('subscriptions/listen');
    expect(listenRequests.map((request) => (request.params as { notifications: unknown }).notifications)).toEqual([
      { toolsListChanged: true, promptsListChanged: true },
      { resourceSubscriptions: ['file:///log'] },
    ]);
    expect(metaOf(listenRequests[0]!)?.['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect([tools.id, resources.id]).toEqual(listenRequests.map((request) => request.id));

    await listens[0]!.ctx.notify('notifications/tools/list_changed', { _meta: { [SUBSCRIPTION_ID]: tools.id } });
    await listens[1]!.ctx.notify('notifications/resources/updated', {
      uri: 'file:///log',
      _meta: { [SUBSCRIPTION_ID]: resources.id },
    });
    await until(() => toolsSeen.length === 1 && resourceSeen.length === 1, 'both notifications');
    expect(toolsSeen[0]!.method).toBe('notifications/tools/list_changed');
    expect(resourceSeen[0]).toMatchObject({
      method: 'notifications/resources/updated',
      params: { uri: 'file:///log' },
    });

    // close(): notifications/cancelled names the listen request (stdio-like transport).
    await tools.close();
    await until(() => h.notifications('notifications/cancelled').length === 1, 'the cancellation');
    expect(h.notifications('notifications/cancelled')[0]!.params).toMatchObject({ requestId: tools.id });
    expect(await tools.ended).toEqual({ by: 'client' });
    await until(() => listens[0]!.ctx.signal.aborted, 'the server to see the cancellation');

    // The server ends the other one gracefully.
    listens[1]!.finish({ resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: resources.id } });
    expect(await resources.ended).toEqual({ by: 'server' });
    await h.client.close();
    h.checked.assertClean();
  });

  it('ends a stream the server cancels with notifications/cancelled, without cancelling back', async () => {
    const listens: Listen[] = [];
    let serverPeer!: JsonRpcPeer;
    const h = await harness({
      server: (peer) => {
        serverPeer = peer;
        listeningServer(listens)(peer);
      },
    });
    const subscription = await h.client.subscribe({ toolsListChanged: true }, () => {});
    await serverPeer.notify('notifications/cancelled', { requestId: subscription.id!, reason: 'shutting down' });
    expect(await subscription.ended).toEqual({ by: 'server' });
    expect(h.notifications('notifications/cancelled')).toEqual([]);
    await subscription.close();
    expect(h.notifications('notifications/cancelled')).toEqual([]);
    await h.client.close();
  });

  it('does not send notifications/cancelled when the transport cancels by closing streams (HTTP)', async () => {
    const listens: Listen[] = [];
    const h = await harness({ server: listeningServer(listens), cancelsBySignal: true });
    const subscription = await h.client.subscribe({ toolsListChanged: true }, () => {});
    await subscription.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(h.notifications('notifications/cancelled')).toEqual([]);
    expect(h.cancelledBySignal).toEqual([subscription.id]);
    await h.client.close();
  });

  it('fails when the server does not acknowledge in time, or rejects the listen request', async () => {
    const h = await harness({
      server: silentListenServer,
    });
    const error = await h.client
      .subscribe({ toolsListChanged: true }, () => {}, { timeoutMs: 30 })
      .catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_SUBSCRIPTION');
    await until(() => h.notifications('notifications/cancelled').length === 1, 'the cancellation of the listen');
    await h.client.close();

    const refusing = await harness({ server: (peer) => modernServer(peer, {}) });
    const refused = await refusing.client.subscribe({ toolsListChanged: true }, () => {}).catch((e: unknown) => e);
    expect((refused as { code?: number }).code).toBe(-32601);
    await refusing.client.close();
  });

  it('registers the stream before the transport sees the listen request (an acknowledgement cannot outrun it)', async () => {
    const h = await harness({
      server: silentListenServer,
      manualConnect: true,
    });
    // A transport that acknowledges a listen request synchronously, inside send(), before it goes anywhere.
    const inner = h.transport;
    const eager: Transport = {
      start() {
        inner.onmessage = (message, info) => eager.onmessage?.(message, info);
        inner.onclose = (reason) => eager.onclose?.(reason);
        inner.onerror = (error) => eager.onerror?.(error);
        return inner.start();
      },
      send(message, options) {
        if ('method' in message && message.method === 'subscriptions/listen' && 'id' in message) {
          eager.onmessage?.({
            jsonrpc: '2.0',
            method: 'notifications/subscriptions/acknowledged',
            params: { _meta: { [SUBSCRIPTION_ID]: message.id }, notifications: { toolsListChanged: true } },
          });
        }
        return inner.send(message, options);
      },
      close: () => inner.close(),
    };
    await h.client.connect(eager);
    const subscription = await h.client.subscribe({ toolsListChanged: true }, () => {}, { timeoutMs: 1_000 });
    expect(subscription.honoured).toEqual({ toolsListChanged: true });
    expect(subscription.id).toBe(h.requests('subscriptions/listen')[0]!.id);
    await h.client.close();
  });

  it('ends every stream when the client closes', async () => {
    const listens: Listen[] = [];
    const h = await harness({ server: listeningServer(listens) });
    const subscription = await h.client.subscribe({ toolsListChanged: true }, () => {});
    await h.client.close();
    expect(await subscription.ended).toEqual({ by: 'client' });
  });
});

describe('subscriptions (legacy: resources/subscribe + list_changed)', () => {
  function server(capabilities: object, log: string[]) {
    return (peer: JsonRpcPeer) => {
      legacyServer(peer, capabilities);
      peer.setRequestHandler('resources/subscribe', (params) => {
        log.push(`subscribe ${(params as { uri: string }).uri}`);
        return {};
      });
      peer.setRequestHandler('resources/unsubscribe', (params) => {
        log.push(`unsubscribe ${(params as { uri: string }).uri}`);
        return {};
      });
    };
  }

  it('subscribes per URI, delivers updates and declared list changes, and unsubscribes what no one else needs', async () => {
    const log: string[] = [];
    let serverPeer!: JsonRpcPeer;
    const h = await harness({
      server: (peer) => {
        serverPeer = peer;
        server({ resources: { subscribe: true }, tools: { listChanged: true }, prompts: {} }, log)(peer);
      },
    });
    const seenA: SubscriptionNotification[] = [];
    const seenB: SubscriptionNotification[] = [];
    const a = await h.client.subscribe(
      { resources: ['file:///a', 'file:///b'], toolsListChanged: true, promptsListChanged: true },
      (n) => seenA.push(n),
    );
    const b = await h.client.subscribe({ resources: ['file:///b'] }, (n) => seenB.push(n));
    // prompts.listChanged was not declared, so it is not honoured.
    expect(a.honoured).toEqual({ toolsListChanged: true, resources: ['file:///a', 'file:///b'] });
    expect(a.id).toBeUndefined();
    expect(log.sort()).toEqual(['subscribe file:///a', 'subscribe file:///b']);

    await serverPeer.notify('notifications/resources/updated', { uri: 'file:///b' });
    await serverPeer.notify('notifications/resources/updated', { uri: 'file:///a/child' });
    await serverPeer.notify('notifications/tools/list_changed');
    await serverPeer.notify('notifications/prompts/list_changed');
    await until(() => seenA.length === 3 && seenB.length === 1, 'the notifications');
    expect(seenA.map((n) => n.method)).toEqual([
      'notifications/resources/updated',
      'notifications/resources/updated',
      'notifications/tools/list_changed',
    ]);
    expect(seenB[0]).toMatchObject({ params: { uri: 'file:///b' } });

    await a.close();
    expect(log).toContain('unsubscribe file:///a');
    expect(log).not.toContain('unsubscribe file:///b');
    await b.close();
    expect(log).toContain('unsubscribe file:///b');
    expect(await a.ended).toEqual({ by: 'client' });
    await h.client.close();
    h.checked.assertClean();
  });

  it('refuses resource subscriptions the server did not declare, unless enforcement is off', async () => {
    const log: string[] = [];
    const h = await harness({ server: server({ resources: {} }, log) });
    await expect(h.client.subscribe({ resources: ['file:///a'] }, () => {})).rejects.toBeInstanceOf(CapabilityError);
    expect(log).toEqual([]);
    await h.client.close();

    const lax = await harness({ server: server({ resources: {} }, log), client: { enforceServerCapabilities: false } });
    const subscription = await lax.client.subscribe({ resources: ['file:///a'], toolsListChanged: true }, () => {});
    expect(subscription.honoured).toEqual({ toolsListChanged: true, resources: ['file:///a'] });
    expect(log).toEqual(['subscribe file:///a']);
    await lax.client.close();
  });

  it('ends legacy subscriptions when the connection closes', async () => {
    const log: string[] = [];
    const h = await harness({ server: server({ resources: { subscribe: true } }, log) });
    const subscription = await h.client.subscribe({ resources: ['file:///a'] }, () => {});
    await h.server.close();
    expect(await subscription.ended).toEqual({ by: 'connection' });
  });
});
