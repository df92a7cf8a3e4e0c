import type { RequestContext } from './context';
import type { JsonRpcNotification, JsonRpcParams, JsonRpcRequest, JsonRpcResponse } from './messages';
import type { NotifyOptions, RequestOptions } from './peer';

/** An outgoing request before the peer gives it an id: what `peer.request()` was called with. */
export interface OutboundRequest {
  method: string;
  params: JsonRpcParams | undefined;
  options: RequestOptions;
}

/** Runs the rest of the inbound chain and the handler; resolves to the result. Pass a request to replace it. */
export type InboundRequestNext = (request?: JsonRpcRequest) => Promise<unknown>;
/** Runs the rest of the outbound chain and sends; resolves to the result. Pass a request to replace it. */
export type OutboundRequestNext = (request?: OutboundRequest) => Promise<unknown>;
/** Runs the rest of the chain and settles the pending request. Pass a response to replace it. */
export type InboundResponseNext = (response?: JsonRpcResponse) => void | Promise<void>;
/** Runs the rest of the chain and sends. Pass a notification or options to replace them. */
export type OutboundNotificationNext = (notification?: JsonRpcNotification, options?: NotifyOptions) => Promise<void>;

/**
 * Wraps the peer at four points, onion style: the first interceptor added is the outermost (it sees a message first
 * and a result last). Every method is optional. The peer composes the chain once when interceptors change, so a peer
 * without interceptors pays nothing.
 *
 * The `tasks` and `middleware` packages are written against this seam: an inbound-request interceptor may answer a
 * request itself (return without calling `next`, or throw a `JsonRpcError`), which also lets it serve methods no
 * handler is registered for (the -32601 error is raised at the end of the chain, so it can catch that too); an
 * outbound-request interceptor may rewrite params or options, or answer locally.
 *
 * @example
 * const timing: Interceptor = {
 *   async inboundRequest(request, ctx, next) {
 *     const started = performance.now();
 *     try {
 *       return await next();
 *     } finally {
 *       console.log(request.method, performance.now() - started);
 *     }
 *   },
 *   outboundRequest(request, next) {
 *     return next({ ...request, params: { ...request.params, sentAt: Date.now() } });
 *   },
 * };
 * peer.use(timing);
 */
export interface Interceptor {
  /** Around handling an inbound request. Resolves to the result to send; throw to send an error. */
  inboundRequest?(request: JsonRpcRequest, ctx: RequestContext, next: InboundRequestNext): unknown;
  /** Around sending a request and awaiting its result. */
  outboundRequest?(request: OutboundRequest, next: OutboundRequestNext): Promise<unknown>;
  /** Before a response is matched to its pending request. Not calling `next` swallows the response. */
  inboundResponse?(response: JsonRpcResponse, next: InboundResponseNext): void | Promise<void>;
  /** Around sending a notification (including cancellations the peer sends and `ctx.notify`). */
  outboundNotification?(
    notification: JsonRpcNotification,
    options: NotifyOptions,
    next: OutboundNotificationNext,
  ): Promise<void>;
}

/** The four composed entry points. @internal */
export interface InterceptorChains {
  inboundRequest: (request: JsonRpcRequest, ctx: RequestContext) => unknown;
  outboundRequest: (request: OutboundRequest) => Promise<unknown>;
  inboundResponse: (response: JsonRpcResponse) => void | Promise<void>;
  outboundNotification: (notification: JsonRpcNotification, options: NotifyOptions) => Promise<void>;
}

function settle<T>(run: () => T): Promise<Awaited<T>> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Builds the chains once: each layer closes over the next, ending at the peer's own functions (`terminals`).
 *
 * @internal
 */
export function composeInterceptors(
  interceptors: readonly Interceptor[],
  terminals: InterceptorChains,
): InterceptorChains {
  let inboundRequest = terminals.inboundRequest;
  let outboundRequest = terminals.outboundRequest;
  let inboundResponse = terminals.inboundResponse;
  let outboundNotification = terminals.outboundNotification;

  for (let index = interceptors.length - 1; index >= 0; index--) {
    const interceptor = interceptors[index]!;
    if (interceptor.inboundRequest) {
      const inner = inboundRequest;
      inboundRequest = (request, ctx) =>
        interceptor.inboundRequest!(request, ctx, (next = request) => settle(() => inner(next, ctx)));
    }
    if (interceptor.outboundRequest) {
      const inner = outboundRequest;
      outboundRequest = (request) =>
        settle(() => interceptor.outboundRequest!(request, (next = request) => settle(() => inner(next))));
    }
    if (interceptor.inboundResponse) {
      const inner = inboundResponse;
      inboundResponse = (response) => interceptor.inboundResponse!(response, (next = response) => inner(next));
    }
    if (interceptor.outboundNotification) {
      const inner = outboundNotification;
      outboundNotification = (notification, options) =>
        settle(() =>
          interceptor.outboundNotification!(notification, options, (next = notification, nextOptions = options) =>
            settle(() => inner(next, nextOptions)),
          ),
        );
    }
  }
  return { inboundRequest, outboundRequest, inboundResponse, outboundNotification };
}
