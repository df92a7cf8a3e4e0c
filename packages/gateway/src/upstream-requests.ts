// How one downstream request crosses to a mount's upstream and what crosses back while it runs: progress,
// cancellation, the log level, questions to the user (in a 2026-07-28 input round, or a legacy upstream's own
// requests) and log messages. It keeps the requests in flight, because a legacy upstream's messages name none.
import type { Client, ClientMiddleware, ClientRequestContext } from '@mcpkit/client';
import { JsonRpcError, JsonRpcErrorCode, type RequestId } from '@mcpkit/jsonrpc-core';
import type { LoggingLevel, LoggingMessageNotificationParams } from '@mcpkit/protocol';
import type { ServerRequestContext } from '@mcpkit/server';
import { downstreamEra } from './eras/downstream-era';
import { type UpstreamCallOptions, upstreamEra } from './eras/upstream-era';

/** The requests during which a server may ask its client (the spec's, and the ones 2026-07-28 lets answer input_required). */
const ASKING_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** `_meta` keys that belong to one hop (the envelope, progress): the gateway sets its own upstream. */
function forwardableMeta(ctx: ServerRequestContext): Record<string, unknown> | undefined {
  const meta = (ctx.params?._meta ?? undefined) as Record<string, unknown> | undefined;
  if (meta === undefined) return undefined;
  let forwarded: Record<string, unknown> | undefined;
  for (const key of Object.keys(meta)) {
    if (key === 'progressToken' || key.startsWith('io.modelcontextprotocol/')) continue;
    forwarded ??= {};
    forwarded[key] = meta[key];
  }
  return forwarded;
}

/** The forwarded requests of one mount, and where the upstream's messages outside them go. */
export class UpstreamRequests {
  readonly #namespace: string;
  readonly #extensions: Record<string, readonly string[]> | undefined;
  /** Downstream requests being forwarded now, oldest first: where the upstream's legacy asks and log messages go. */
  readonly #inFlight = new Set<ServerRequestContext>();
  /** The upstream requests sent for them and not yet answered (their ids, once sent, name what a message is for). */
  readonly #sent = new Set<ClientRequestContext>();

  /**
   * Keeps the upstream client's requests in flight, so that a message the transport ties to one of them
   * (`relatedRequestId`: a legacy Streamable HTTP upstream's questions and log messages on a call's response stream)
   * reaches the caller that request was sent for. Installed with `client.use` on a client the mount owns.
   */
  readonly middleware: ClientMiddleware = (ctx, next) => {
    // Only an upstream that asks outside its calls needs it (legacy); a 2026-07-28 one asks within their input rounds.
    // Not an async function: a call that passes straight through makes no promise of its own.
    if (ctx.direction !== 'outbound' || !upstreamEra(ctx.era).asksOutsideCalls) return next();
    this.#sent.add(ctx);
    return next().finally(() => this.#sent.delete(ctx));
  };

  constructor(namespace: string, extensions: Record<string, readonly string[]> | undefined) {
    this.#namespace = namespace;
    this.#extensions = extensions;
  }

  /**
   * Sends one downstream request upstream on `client`; upstream JSON-RPC errors pass as they are, local failures
   * become -32603 naming the mount. `onFailure` hears of every failure first (to take a closed upstream down).
   */
  async forward<R>(
    client: Client,
    ctx: ServerRequestContext,
    method: string,
    params: Record<string, unknown>,
    onFailure: (error: unknown, client: Client) => void,
  ): Promise<R> {
    // The downstream's envelope and progress token belong to its hop; only its other `_meta` keys travel on.
    let upstreamParams = params;
    if ('_meta' in params) {
      const { _meta: _hop, ...rest } = params;
      upstreamParams = rest;
    }
    const meta = forwardableMeta(ctx);
    if (meta !== undefined) upstreamParams = { ...upstreamParams, _meta: meta };
    // Each side's era is read once: what the upstream's reads (2026-07-28: per-request capabilities, input rounds) is
    // built only for it, and the result takes the shape of the caller's.
    const callOptions = upstreamEra(client.era).callOptions(ctx, this.#extensions, false);
    const downstream = downstreamEra(ctx.era);
    this.#inFlight.add(ctx);
    try {
      const result = await client.request<R>(method, upstreamParams, {
        // Not `ctx.signal`: the cancellation crosses without an AbortSignal made for it (most of a hop's cost on Node 20).
        signal: ctx.cancellation,
        onProgress:
          ctx.progressToken === undefined
            ? undefined
            : (progress) => void ctx.progress(progress.progress, progress.total, progress.message).catch(() => {}),
        logLevel: downstream.logLevel(ctx),
        clientCapabilities: callOptions.clientCapabilities,
        inputHandlers: callOptions.inputHandlers,
        cache: false,
      });
      return downstream.result(result);
    } catch (error) {
      onFailure(error, client);
      throw this.failure(error, method);
    } finally {
      this.#inFlight.delete(ctx);
    }
  }

  /**
   * What a call crossing as a task carries for its caller (as `forward` builds inline): the log level, and what only a
   * 2026-07-28 upstream reads: the caller's capabilities (the tasks extension among them) and its input rounds asked
   * of the caller.
   */
  taskCallOptions(client: Client, ctx: ServerRequestContext): UpstreamCallOptions & { logLevel?: LoggingLevel } {
    return {
      logLevel: downstreamEra(ctx.era).logLevel(ctx),
      ...upstreamEra(client.era).callOptions(ctx, this.#extensions, true),
    };
  }

  /**
   * Runs `run` with `ctx` counted in flight on this mount (a call crossing as a task, whose upstream questions and log
   * messages come outside any request of `forward`).
   */
  async track<T>(ctx: ServerRequestContext, run: () => Promise<T>): Promise<T> {
    this.#inFlight.add(ctx);
    try {
      return await run();
    } finally {
      this.#inFlight.delete(ctx);
    }
  }

  /**
   * The downstream request a legacy upstream's question (`elicitation/create`, `sampling/createMessage`,
   * `roots/list`) goes to; throws when no single asking request of this mount is in flight.
   */
  asker(method: string, relatedRequestId?: RequestId): ServerRequestContext {
    const asker = this.#callerOf(relatedRequestId) ?? this.#soleCaller();
    if (asker === undefined || !ASKING_METHODS.has(asker.method)) {
      const inFlight = this.#inFlight.size;
      throw new JsonRpcError(
        JsonRpcErrorCode.InternalError,
        inFlight === 0
          ? `mcpkit gateway: no request of mount '${this.#namespace}' is in flight to answer ${method}`
          : `mcpkit gateway: ${inFlight} requests of mount '${this.#namespace}' are in flight and ${method} names none of them; ask within a 2026-07-28 input round to be answered`,
        { mount: this.#namespace, method, inFlight },
      );
    }
    return asker;
  }

  /** Passes an upstream log message to the one request in flight, if there is exactly one. */
  logged(params: LoggingMessageNotificationParams, relatedRequestId?: RequestId): void {
    (this.#callerOf(relatedRequestId) ?? this.#soleCaller())
      ?.log(params.level, params.data, params.logger)
      .catch(() => {});
  }

  /**
   * The caller of the upstream request `relatedRequestId` names: the downstream request in flight whose cancellation
   * that request was sent with (every forwarded request, and a task's call and `tasks/result`, is sent with its
   * caller's `ctx.cancellation`, which is the task's signal once a task rebound it).
   */
  #callerOf(relatedRequestId: RequestId | undefined): ServerRequestContext | undefined {
    if (relatedRequestId === undefined) return undefined;
    for (const sent of this.#sent) {
      if (sent.requestId !== relatedRequestId) continue;
      const source = sent.options.signal;
      if (source === undefined) return undefined;
      for (const ctx of this.#inFlight) if (ctx.cancellation === source) return ctx;
      return undefined;
    }
    return undefined;
  }

  /**
   * The one forwarded request an upstream message outside any call belongs to. A legacy upstream's server→client
   * request, and any upstream's log message, names no request of ours: with exactly one request in flight on this
   * mount it is that one's; with several, guessing could show one caller another's question or log, so there is none.
   */
  #soleCaller(): ServerRequestContext | undefined {
    if (this.#inFlight.size !== 1) return undefined;
    for (const ctx of this.#inFlight) return ctx;
    return undefined;
  }

  /** A local failure as -32603 naming the mount; an upstream JSON-RPC error as it is. */
  failure(error: unknown, method: string): unknown {
    if (JsonRpcError.is(error)) return error;
    // The client explains some upstream errors in its own terms (a -32021 naming an input capability): the caller
    // gets the upstream's error, which is about the capabilities it declared.
    const cause = (error as { cause?: unknown } | null)?.cause;
    if (JsonRpcError.is(cause)) return cause;
    const reason = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown } | undefined)?.code;
    return new JsonRpcError(
      JsonRpcErrorCode.InternalError,
      `mount '${this.#namespace}': ${method} failed upstream: ${reason}`,
      { mount: this.#namespace, method, ...(typeof code === 'string' ? { reason: code } : {}) },
    );
  }
}
