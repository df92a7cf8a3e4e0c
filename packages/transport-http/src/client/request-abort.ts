// Aborting one HTTP request of a client transport. An `AbortController` per request costs an `EventTarget`, a lazily
// built `AbortSignal` and the listener bookkeeping of both: on Node, once fetch is gone, about a tenth of the client's
// CPU per call (issue 14's profiles). So the exchanges take anything that reads like an `AbortSignal` (`AbortSource`):
// a real one (the transport's lifetime, a `fetch` path) or a `Canceller`, a plain object with the same four members.

/** What an exchange reads of the signal that aborts a request: an `AbortSignal` is one, so is a {@link Canceller}. */
export interface AbortSource {
  readonly aborted: boolean;
  /** Why it aborted (an `AbortError` `DOMException` unless a reason was given); undefined before. */
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * The abort switch of one request (and the response stream it opens): `AbortController` and its signal in one plain
 * object. Listeners run once, in order, when {@link abort} is first called; one added after that never runs (as with
 * `EventTarget`). Listeners are the transports' own and must not throw.
 */
export class Canceller implements AbortSource {
  #aborted = false;
  #reason: unknown;
  #listeners: (() => void)[] | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** Aborts, once: later calls do nothing. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.#aborted) return;
    if (this.#listeners === undefined) this.#listeners = [listener];
    else this.#listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const listeners = this.#listeners;
    const index = listeners === undefined ? -1 : listeners.indexOf(listener);
    if (index !== -1) listeners?.splice(index, 1);
  }
}

/** An `AbortSignal` for `source`, for APIs that take nothing else (`fetch`): a Canceller gets one linked to it. */
export function abortSignalOf(source: AbortSource): AbortSignal {
  if (!(source instanceof Canceller)) return source as AbortSignal;
  const controller = new AbortController();
  if (source.aborted) controller.abort(source.reason);
  else source.addEventListener('abort', () => controller.abort(source.reason));
  return controller.signal;
}
