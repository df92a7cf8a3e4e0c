// The 2026-07-28 era on the client side: `server/discover` settles the session; every request carries the `_meta`
// envelope (version, client capabilities and info, log level); results may be cached (`ttlMs` / `cacheScope`) and may
// ask for input (`input_required`); a -32022 answer is retried once with a mutually supported version; the server
// sends no requests of its own; the log level rides in the envelope; subscribing is one `subscriptions/listen`
// stream; roots changes need no notification (the server asks for roots inside each request that needs them).
import { type JsonObject, JsonRpcError } from '@mcpkit/jsonrpc-core';
import {
  buildRequestMeta,
  type DiscoverResult,
  isModernVersion,
  type LoggingLevel,
  type RequestMeta,
  readServerInfo,
  readUnsupportedProtocolVersionData,
  selectModernVersion,
} from '@mcpkit/protocol';
import type { CallOptions } from '../options';
import type { SubscribeFilter, Subscription, SubscriptionNotification } from '../subscription-types';
import type { ClientEra, Connection, SessionState, SubscribeOptions, SubscriptionKeeper } from './client-era';
import { checkDiscoverResult } from './discover-result';
import type { ClientEraHost } from './era-host';

/** The modern era's behaviour, for one client. */
export class ModernEra implements ClientEra {
  readonly name = 'modern' as const;
  readonly cachesResults = true;
  readonly inputInResults = true;
  readonly answersServerRequests = false;
  /** The default `logLevel` of the envelope (`setLoggingLevel`). */
  logLevel: LoggingLevel | undefined = undefined;
  readonly #host: ClientEraHost;

  constructor(host: ClientEraHost) {
    this.#host = host;
  }

  /** The session of a connection in `version`, from the server's (checked) `DiscoverResult`. */
  open(version: string, result: DiscoverResult): SessionState {
    return {
      era: this,
      version,
      serverCapabilities: result.capabilities,
      serverInfo: readServerInfo(result),
      instructions: result.instructions,
    };
  }

  /** The `_meta` envelope in `version`, around `meta` and the call's extra keys (envelope keys win). */
  envelope(version: string, meta?: RequestMeta, options?: CallOptions): RequestMeta {
    const extra = options?.meta === undefined ? meta : { ...meta, ...options.meta };
    return buildRequestMeta({
      protocolVersion: version,
      clientCapabilities: options?.clientCapabilities ?? this.#host.capabilities,
      clientInfo: this.#host.info,
      logLevel: options?.logLevel ?? this.logLevel,
      extra,
    });
  }

  wireParams(version: string, params: JsonObject | undefined, options: CallOptions): JsonObject {
    const meta = params?._meta as RequestMeta | undefined;
    // `_meta` before the spread keeps V8 on its fast object path (spread, then a key: ~0.5 µs more per request).
    const wire: JsonObject = { _meta: undefined, ...params };
    wire._meta = this.envelope(version, meta, options);
    return wire;
  }

  retryVersion(error: unknown): string | undefined {
    const unsupported = JsonRpcError.is(error) ? readUnsupportedProtocolVersionData(error) : undefined;
    return unsupported ? selectModernVersion(unsupported.supported) : undefined;
  }

  /**
   * Capabilities and instructions may have changed since the session opened; an answer that is not a complete
   * `DiscoverResult` of the session's version changes nothing.
   */
  refresh(session: SessionState, discovered: unknown): void {
    if (!isModernVersion(session.version) || !checkDiscoverResult(session.version, discovered).ok) return;
    const result = discovered as DiscoverResult;
    session.serverCapabilities = result.capabilities;
    session.instructions = result.instructions;
    session.serverInfo = readServerInfo(result) ?? session.serverInfo;
  }

  async setLogLevel(level: LoggingLevel, _options: CallOptions | undefined): Promise<void> {
    this.logLevel = level;
  }

  subscribe(
    { peer, session }: Connection,
    subscriptions: SubscriptionKeeper,
    filter: SubscribeFilter,
    onNotification: (notification: SubscriptionNotification) => void,
    options: SubscribeOptions,
  ): Promise<Subscription> {
    return subscriptions.openStream(peer, this.envelope(session.version), filter, onNotification, options);
  }

  async notifyRootsChanged(_connection: Connection): Promise<boolean> {
    return false;
  }
}
