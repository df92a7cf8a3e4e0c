// Cancellation without an `EventTarget`. An `AbortController` costs an `EventTarget`, an `AbortSignal` and their
// listener bookkeeping, and on Node 20 its creation and collection are a large share of a short request's CPU (a
// gateway forwarding a call made two of them per hop: half of what the hop cost). Whatever only needs to learn of an
// abort (the peer's pending requests, the HTTP client transports) takes an `AbortSource`, which an `AbortSignal` is
// and so is an `AbortLink`: a plain object that makes a real `AbortSignal` only when someone asks for one.

/**
 * What a request reads of the thing that aborts it: an `AbortSignal` is one, so is an {@link AbortLink}.
 *
 * @example
 * const source: AbortSource = AbortSignal.timeout(5_000); // or ctx.cancellation, or new AbortLink()
 * await peer.request('slow', {}, { signal: source });
 */
export interface AbortSource {
  readonly aborted: boolean;
  /** Why it aborted (an `AbortError` `DOMException` unless a reason was given); `undefined` before. */
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * An abort switch and its source in one plain object: what an `AbortController` and its signal do for code that only
 * listens, at a fraction of the cost. Listeners run once, in order, on the first {@link abort}; one added after that
 * never runs (as with `EventTarget`). `signal` makes a real `AbortSignal` tied to it, on first read, for APIs that
 * take nothing else (`fetch`).
 *
 * @example
 * const link = new AbortLink();
 * const pending = peer.request('slow', {}, { signal: link });
 * link.abort(new Error('no longer needed')); // pending rejects with RequestAbortedError
 */
export class AbortLink implements AbortSource {
  #aborted = false;
  #reason: unknown = undefined;
  #listeners: (() => void)[] | undefined = undefined;
  #controller: AbortController | undefined = undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** A real `AbortSignal` that aborts with this link (made on first read, the same one after). */
  get signal(): AbortSignal {
    let controller = this.#controller;
    if (controller === undefined) {
      controller = new AbortController();
      this.#controller = controller;
      if (this.#aborted) controller.abort(this.#reason);
    }
    return controller.signal;
  }

  /** Aborts, once: later calls do nothing. Without a reason, the reason is an `AbortError` as `AbortController`'s. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
    this.#controller?.abort(this.#reason);
  }

  /** Once aborted, does nothing (the listener would never run). Listeners must not throw. */
  addEventListener(_type: 'abort', listener: () => void, _options?: { once?: boolean }): void {
    if (this.#aborted) return;
    const listeners = this.#listeners;
    if (listeners === undefined) this.#listeners = [listener];
    else listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const listeners = this.#listeners;
    if (listeners === undefined) return;
    const index = listeners.lastIndexOf(listener);
    if (index !== -1) listeners.splice(index, 1);
  }

  /**
   * Aborts this link when `source` aborts (at once if it already has); returns what stops listening. For a link that
   * may also abort on its own (a handler set aside while its request goes on).
   */
  follow(source: AbortSource): () => void {
    if (source.aborted) {
      this.abort(source.reason);
      return NOTHING;
    }
    const onAbort = () => this.abort(source.reason);
    source.addEventListener('abort', onAbort, ONCE);
    return () => source.removeEventListener('abort', onAbort);
  }
}

const NOTHING = (): void => undefined;

/** The listener options of an abort listener (added per request): one shared object rather than a literal each time. */
export const ONCE: { readonly once: true } = Object.freeze({ once: true });

/**
 * An `AbortSignal` for `source`: itself when it is one, the link's own signal for an {@link AbortLink}, else a new
 * signal tied to it.
 *
 * @example
 * await fetch(url, { signal: toAbortSignal(options.signal) });
 */
export function toAbortSignal(source: AbortSource): AbortSignal {
  if (source instanceof AbortLink) return source.signal;
  if (typeof AbortSignal === 'function' && source instanceof AbortSignal) return source;
  const link = new AbortLink();
  link.follow(source);
  return link.signal;
}
