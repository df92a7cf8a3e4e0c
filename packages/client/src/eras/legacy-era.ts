// The 2024-11-05 … 2025-11-25 era on the client side: `initialize` settles the session; requests carry only the
// call's own `_meta`; results are final (no caching, no `input_required`); the server asks for input with real
// server→client requests; the log level is a request (`logging/setLevel`); subscribing is `resources/subscribe` per
// URI plus the list-changed notifications the server declared; roots changes are announced with a notification.
import { isJsonObject, type JsonObject } from '@mcpkit/jsonrpc-core';
import { assertCapability, type InitializeResult, type LoggingLevel, type RequestMeta } from '@mcpkit/protocol';
import type { CallOptions } from '../options';
import type { SubscribeFilter, Subscription, SubscriptionNotification } from '../subscription-types';
import type { ClientEra, Connection, SessionState, SubscribeOptions, SubscriptionKeeper } from './client-era';
import type { ClientEraHost } from './era-host';

/** The legacy era's behaviour, for one client. */
export class LegacyEra implements ClientEra {
  readonly name = 'legacy' as const;
  readonly cachesResults = false;
  readonly inputInResults = false;
  readonly answersServerRequests = true;
  readonly #host: ClientEraHost;

  constructor(host: ClientEraHost) {
    this.#host = host;
  }

  /** The session `initialize` settled in `version` (already checked against the versions this client speaks). */
  open(version: string, result: InitializeResult): SessionState {
    return {
      era: this,
      version,
      // Legacy servers are lenient peers: a missing or malformed capabilities object reads as "declares nothing".
      serverCapabilities: isJsonObject(result.capabilities) ? result.capabilities : {},
      serverInfo: result.serverInfo,
      instructions: result.instructions,
    };
  }

  wireParams(_version: string, params: JsonObject | undefined, options: CallOptions): JsonObject | undefined {
    if (options.meta === undefined) return params;
    return { ...params, _meta: { ...(params?._meta as RequestMeta | undefined), ...options.meta } };
  }

  retryVersion(_error: unknown): undefined {
    return undefined;
  }

  refresh(_session: SessionState, _discovered: unknown): void {
    // `server/discover` does not exist before 2026-07-28: the session is what `initialize` settled.
  }

  async setLogLevel(level: LoggingLevel, options: CallOptions | undefined): Promise<void> {
    await this.#host.call('logging/setLevel', { level }, options);
  }

  subscribe(
    { session }: Connection,
    subscriptions: SubscriptionKeeper,
    filter: SubscribeFilter,
    onNotification: (notification: SubscriptionNotification) => void,
    options: SubscribeOptions,
  ): Promise<Subscription> {
    return subscriptions.subscribeLegacy(session, filter, onNotification, options);
  }

  async notifyRootsChanged({ peer, session }: Connection): Promise<boolean> {
    const method = 'notifications/roots/list_changed';
    assertCapability(method, session.version, { client: this.#host.capabilities });
    await peer.notify(method);
    return true;
  }
}
