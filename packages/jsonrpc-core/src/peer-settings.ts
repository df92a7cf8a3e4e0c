// What a peer is configured with, resolved once. Many peers may share one (a server's sessions: one router, one set
// of hooks and timeouts), so an idle peer holds a reference instead of a field for each.
import type { PeerHooks } from './hooks';
import { timeoutValue } from './in-flight';
import type { RequestId } from './messages';
import { Router } from './router';

const DEFAULT_TIMEOUT_MS = 60_000;

/** Options for `JsonRpcPeer`. */
export interface JsonRpcPeerOptions {
  /** The method table; pass one router to many peers to share it. Default: a new `Router`. */
  router?: Router;
  /** Idle timeout for requests that set none. Default 60 000 ms; `0` or `Infinity`: none. */
  defaultTimeoutMs?: number;
  /** Max-total timeout for requests that set none. Default: none. */
  maxTotalTimeoutMs?: number;
  /** Makes request ids (and progress tokens). Default: 1, 2, 3, … Ids must be unique among pending requests. */
  idGenerator?: () => RequestId;
  /** The protocol seams: progress tokens and cancellation. */
  hooks?: PeerHooks;
  /**
   * The four settings above (router, timeouts, id generator, hooks) resolved once, to share between many peers (a
   * server's sessions): each peer then holds one reference instead of four fields. When given, those four options are
   * ignored.
   */
  settings?: PeerSettings;
  /** Initial `onerror`. */
  onError?: (error: Error) => void;
  /** Initial `onclose`. */
  onClose?: () => void;
}

/**
 * `JsonRpcPeerOptions`' router, timeouts, id generator and hooks, checked and resolved once.
 *
 * @example
 * const settings = new PeerSettings({ router, hooks: mcpPeerHooks, defaultTimeoutMs: 30_000 });
 * const peers = transports.map(() => new JsonRpcPeer({ settings }));
 */
export class PeerSettings {
  readonly router: Router;
  readonly hooks: PeerHooks;
  readonly defaultTimeoutMs: number;
  readonly maxTotalTimeoutMs: number;
  readonly idGenerator: (() => RequestId) | undefined;

  constructor(options: Omit<JsonRpcPeerOptions, 'settings' | 'onError' | 'onClose'> = {}) {
    this.router = options.router ?? new Router();
    this.hooks = options.hooks ?? {};
    this.defaultTimeoutMs = timeoutValue(options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS, 'defaultTimeoutMs');
    this.maxTotalTimeoutMs = timeoutValue(options.maxTotalTimeoutMs, 'maxTotalTimeoutMs');
    this.idGenerator = options.idGenerator;
  }
}
