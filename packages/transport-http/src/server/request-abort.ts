// How the handler learns that the client of a request went away. A web `Request` says so through its `signal`; an
// adapter's own request (the node one) can offer a listener slot under a registry symbol instead, so that no
// AbortController is made for a request nobody cancels (a registry symbol, so separately bundled entries agree).

const ON_ABORT: unique symbol = Symbol.for('@mcpkit/transport-http.onAbort') as never;

/** @internal What an adapter's request offers under the registry symbol. */
export interface AbortListenerSlot {
  /**
   * Calls `listener` once when the client goes away (at once when it already has) and returns what stops that, or
   * `undefined` when it was called at once.
   */
  [ON_ABORT](listener: (reason: unknown) => void): (() => void) | undefined;
}

export { ON_ABORT };

const NOTHING = (): void => undefined;

/** Calls `listener` when `request`'s client goes away; returns the function that stops listening. */
export function onRequestAbort(request: Request, listener: (reason: unknown) => void): () => void {
  const source = (request as Request & Partial<AbortListenerSlot>)[ON_ABORT];
  if (typeof source === 'function') return source.call(request, listener) ?? NOTHING;
  const signal = request.signal;
  if (signal.aborted) {
    listener(signal.reason);
    return NOTHING;
  }
  const onAbort = () => listener(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
