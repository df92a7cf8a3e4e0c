// What each era's handshake (legacy-handshake.ts, modern-handshake.ts) needs from the client and from `negotiate`, in
// a file of its own so both handshakes and negotiation import it without a cycle.
import type { JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import type { ClientCapabilities, DiscoverResult, Implementation } from '@mcpkit/protocol';
import type { CancellationPolicy } from '../cancellation';
import type { LegacyEra } from './legacy-era';
import type { ModernEra } from './modern-era';

/**
 * What negotiation needs from the client: a connected peer, who the client is, its era objects (the session opens
 * with the one negotiation settles on), and where results go.
 */
export interface NegotiationContext {
  readonly peer: JsonRpcPeer;
  readonly info: Implementation;
  readonly capabilities: ClientCapabilities;
  /** The client's era objects; the modern one also gives the probe its `_meta` envelope. */
  readonly eras: { readonly legacy: LegacyEra; readonly modern: ModernEra };
  /** Timeout of `initialize` / `server/discover` when `ConnectOptions.timeoutMs` is not set. */
  readonly defaultTimeoutMs: number;
  /** Silences the probe: a legacy server must not hear about a request it never knew. */
  readonly cancellation: CancellationPolicy;
  /** Receives the server's `DiscoverResult` (the client caches it). */
  readonly onDiscovered: (result: DiscoverResult) => void;
  /** Tells the transport the version settled on (see `VersionedTransport`), before anything of its era is sent. */
  readonly tellVersion: (version: string) => void;
}

/** One connection attempt: the context, its timeouts and the caller's signal. */
export interface Attempt {
  readonly context: NegotiationContext;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  /** Only for the probe: how long it may stay unanswered once the server has sent something. */
  readonly probeTimeoutMs?: number;
}
