import {
  ConnectionClosedError,
  isJsonObject,
  type JsonRpcPeer,
  type RequestId,
  type Router,
} from '@mcpkit/jsonrpc-core';
import {
  assertCapability,
  hasCapability,
  type RequestMeta,
  readSubscriptionId,
  type SubscriptionFilter,
} from '@mcpkit/protocol';
import type { CancellationPolicy } from './cancellation';
import type { SessionState, SubscribeOptions } from './eras/client-era';
import { type ListenStream, openListenStream } from './listen-stream';
import type { CallOptions } from './options';
import type { SubscribeFilter, Subscription, SubscriptionEnd, SubscriptionNotification } from './subscription-types';

export type { SubscribeFilter, SubscribeOptions, Subscription, SubscriptionEnd, SubscriptionNotification };

/** What subscriptions need from the client. */
export interface SubscriptionContext {
  /** Sends a request through the client's pipeline (legacy `resources/subscribe` / `resources/unsubscribe`). */
  readonly call: (method: string, params: object, options?: CallOptions) => Promise<unknown>;
  /** Silences the cancellation of a listen request the server already ended. */
  readonly cancellation: CancellationPolicy;
  /** Legacy: subscribe only to what the server declared (`enforceServerCapabilities`). */
  readonly enforce: boolean;
  /** Default of `SubscribeOptions.timeoutMs` (`requestTimeoutMs`). */
  readonly timeoutMs: number;
  readonly connected: () => boolean;
  /** Receives what a notification callback throws. */
  readonly onError: ((error: Error) => void) | undefined;
}

type NotificationCallback = (notification: SubscriptionNotification) => void;

interface LegacySubscription {
  readonly filter: SubscribeFilter;
  readonly onNotification: NotificationCallback;
  readonly end: (end: SubscriptionEnd) => void;
}

/**
 * Every subscription of a client, in either era: 2026-07-28 listen streams routed by `subscriptionId`, legacy
 * `resources/subscribe` calls (reference-counted per URI) with list-changed listeners.
 */
export class Subscriptions {
  readonly #context: SubscriptionContext;
  readonly #streams = new Map<RequestId, ListenStream>();
  readonly #legacy = new Set<LegacySubscription>();
  readonly #resourceRefs = new Map<string, number>();

  constructor(context: SubscriptionContext) {
    this.#context = context;
  }

  /** Handles the notifications of `peer` that concern listen streams: acknowledgements and server-side ends. */
  listen(peer: Router): void {
    peer.setNotificationHandler('notifications/subscriptions/acknowledged', (params) => {
      const id = readSubscriptionId(params);
      const stream = id === undefined ? undefined : this.#streams.get(id);
      const acknowledged = stream?.acknowledged;
      if (stream === undefined || acknowledged === undefined) return;
      stream.acknowledged = undefined;
      const notifications = (params as { notifications?: unknown } | undefined)?.notifications;
      acknowledged(isJsonObject(notifications) ? (notifications as SubscriptionFilter) : {});
    });
    peer.setNotificationHandler('notifications/cancelled', (params) => {
      // 2026-07-28 on stdio: the server tears a listen stream down by cancelling its request id.
      const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
      const stream =
        typeof requestId === 'string' || typeof requestId === 'number' ? this.#streams.get(requestId) : undefined;
      if (stream === undefined) return;
      this.#streams.delete(stream.id);
      this.#context.cancellation.silence(stream.id);
      stream.controller.abort(new Error('Subscription cancelled by the server'));
      this.#context.cancellation.unsilence(stream.id);
      stream.end({ by: 'server' });
    });
  }

  /** Opens a `subscriptions/listen` stream (2026-07-28) whose request carries `meta` (the era's envelope). */
  openStream(
    peer: JsonRpcPeer,
    meta: RequestMeta,
    filter: SubscribeFilter,
    onNotification: NotificationCallback,
    options: SubscribeOptions,
  ): Promise<Subscription> {
    return openListenStream(filter, onNotification, {
      peer,
      meta,
      streams: this.#streams,
      timeoutMs: options.timeoutMs ?? this.#context.timeoutMs,
      signal: options.signal,
    });
  }

  /** Hands a list-changed or resource-updated notification to the subscriptions that asked for it. */
  deliver(method: string, params: unknown): void {
    const notification = { method, params } as SubscriptionNotification;
    const subscriptionId = readSubscriptionId(params);
    if (subscriptionId !== undefined) {
      const stream = this.#streams.get(subscriptionId);
      if (stream !== undefined) this.#notify(stream.onNotification, notification);
      return;
    }
    for (const subscription of this.#legacy) {
      if (filterWants(subscription.filter, method, params)) this.#notify(subscription.onNotification, notification);
    }
  }

  /**
   * Ends every subscription. `client` (`close()`): listen requests are aborted, which cancels them where the
   * transport needs it; `connection`: the connection is gone, nothing is sent.
   */
  endAll(by: 'client' | 'connection'): void {
    for (const stream of [...this.#streams.values()]) {
      this.#streams.delete(stream.id);
      if (by === 'client') {
        stream.controller.abort(new Error('Client closed'));
        stream.end({ by });
      } else {
        const error = new ConnectionClosedError('The connection closed', { method: 'subscriptions/listen' });
        stream.end({ by, error });
      }
    }
    for (const subscription of this.#legacy) subscription.end({ by });
    this.#legacy.clear();
    this.#resourceRefs.clear();
  }

  /**
   * Subscribes the 2024-11-05 … 2025-11-25 way: `resources/subscribe` per URI (reference-counted), and listens for the
   * list-changed notifications the server declared.
   */
  async subscribeLegacy(
    session: SessionState,
    filter: SubscribeFilter,
    onNotification: NotificationCallback,
    options: SubscribeOptions,
  ): Promise<Subscription> {
    const { call, enforce } = this.#context;
    const caps = session.serverCapabilities;
    const declared = (path: string[]) => !enforce || hasCapability(caps, path);
    const honoured: SubscribeFilter = {};
    if (filter.toolsListChanged && declared(['tools', 'listChanged'])) honoured.toolsListChanged = true;
    if (filter.promptsListChanged && declared(['prompts', 'listChanged'])) honoured.promptsListChanged = true;
    if (filter.resourcesListChanged && declared(['resources', 'listChanged'])) honoured.resourcesListChanged = true;
    const uris = [...new Set(filter.resources ?? [])];
    if (uris.length > 0) {
      if (enforce) assertCapability('resources/subscribe', session.version, { server: caps });
      await this.#subscribeResources(uris, options);
      honoured.resources = uris;
    }
    let end!: (end: SubscriptionEnd) => void;
    const ended = new Promise<SubscriptionEnd>((resolve) => {
      end = resolve;
    });
    const subscription: LegacySubscription = { filter: honoured, onNotification, end };
    this.#legacy.add(subscription);
    let closed = false;
    return {
      honoured,
      id: undefined,
      ended,
      close: async () => {
        if (closed) return;
        closed = true;
        this.#legacy.delete(subscription);
        const release = this.#release(honoured.resources ?? []);
        end({ by: 'client' });
        if (this.#context.connected()) await Promise.all(release.map((uri) => call('resources/unsubscribe', { uri })));
      },
    };
  }

  /** Sends `resources/subscribe` for the URIs no subscription holds yet (all or none), then counts the references. */
  async #subscribeResources(uris: string[], options: SubscribeOptions): Promise<void> {
    const { call } = this.#context;
    const fresh = uris.filter((uri) => (this.#resourceRefs.get(uri) ?? 0) === 0);
    const subscribed: string[] = [];
    try {
      await Promise.all(
        fresh.map(async (uri) => {
          await call('resources/subscribe', { uri }, { signal: options.signal, timeoutMs: options.timeoutMs });
          subscribed.push(uri);
        }),
      );
    } catch (error) {
      await Promise.allSettled(subscribed.map((uri) => call('resources/unsubscribe', { uri })));
      throw error;
    }
    for (const uri of uris) this.#resourceRefs.set(uri, (this.#resourceRefs.get(uri) ?? 0) + 1);
  }

  /** Drops one reference to each URI; returns those no subscription needs any more. */
  #release(uris: string[]): string[] {
    const release: string[] = [];
    for (const uri of uris) {
      const count = (this.#resourceRefs.get(uri) ?? 0) - 1;
      if (count > 0) this.#resourceRefs.set(uri, count);
      else {
        this.#resourceRefs.delete(uri);
        release.push(uri);
      }
    }
    return release;
  }

  #notify(callback: NotificationCallback, notification: SubscriptionNotification): void {
    try {
      callback(notification);
    } catch (error) {
      this.#context.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** Whether a legacy subscription asked for `method` (for `notifications/resources/updated`: of that URI). */
function filterWants(filter: SubscribeFilter, method: string, params: unknown): boolean {
  switch (method) {
    case 'notifications/tools/list_changed':
      return filter.toolsListChanged === true;
    case 'notifications/prompts/list_changed':
      return filter.promptsListChanged === true;
    case 'notifications/resources/list_changed':
      return filter.resourcesListChanged === true;
    case 'notifications/resources/updated': {
      const uri = (params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri !== 'string' || filter.resources === undefined) return false;
      // The updated URI may be a sub-resource of the one subscribed to.
      return filter.resources.some((subscribed) => uri === subscribed || uri.startsWith(`${subscribed}/`));
    }
    default:
      return false;
  }
}
