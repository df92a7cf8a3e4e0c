import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from '@mcpkit/client';
import { ConnectionClosedError, JsonRpcError, type Transport } from '@mcpkit/jsonrpc-core';
import type { LoggingMessageNotificationParams } from '@mcpkit/protocol';
import type { ServerRequestContext } from '@mcpkit/server';

/** What an upstream tells the side facing the host: its log messages and what changed. */
export interface UpstreamEvents {
  /** A log message the upstream sent outside any call forwarded through it. */
  onLog?: (params: LoggingMessageNotificationParams) => void;
  onListChanged?: (kind: 'tools' | 'prompts' | 'resources') => void;
  onResourceUpdated?: (uri: string) => void;
  /** Problems nobody awaits: a message that is not JSON-RPC (a child writing garbage to stdout), a late answer. */
  onError?: (error: Error) => void;
  /** The upstream connection ended unexpectedly (a child that died): why. */
  onLost?: (reason: Error | undefined) => void;
}

/** Options of an {@link Upstream}. */
export interface UpstreamOptions extends UpstreamEvents {
  /** A fresh transport to the upstream server (a child to spawn, a URL to reach). */
  open: () => Transport | Promise<Transport>;
  /** Pin the upstream's protocol version (default: the era is detected). */
  protocolVersion?: string;
  /** First delay before reconnecting after the upstream was lost; doubled per quick loss, up to `maxBackoffMs`. Default 250. */
  backoffMs?: number;
  /** Default 10 000. */
  maxBackoffMs?: number;
}

/** The `_meta` keys that belong to one hop (the era envelope, progress, rounds): never forwarded as they are. */
const HOP_META = /^io\.modelcontextprotocol\/|^progressToken$/;

/**
 * One connection to the server the bridge forwards to, kept by an mcpkit `Client`: requests go through it with their
 * progress and cancellation; what the upstream asks back (elicitation, sampling, roots) is asked of the host through
 * the context of the call it belongs to. A connection that is lost (a child that died) fails the calls in flight and
 * is opened again for the next request, after a backoff that grows while losses come quickly.
 */
export class Upstream {
  readonly #options: UpstreamOptions;
  readonly #calls = new AsyncLocalStorage<ServerRequestContext>();
  readonly #inFlight = new Set<ServerRequestContext>();
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #quickLosses = 0;
  #connectedAt = 0;
  #notBefore = 0;
  #closed = false;

  constructor(options: UpstreamOptions) {
    this.#options = options;
  }

  /** The connected client, connecting (again) when needed. */
  async client(): Promise<Client> {
    if (this.#client?.connected) return this.#client;
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return await this.#connecting;
  }

  /** Sends `method` upstream for the host's request `ctx`, with its progress, cancellation and questions. */
  async forward(
    method: string,
    params: Record<string, unknown> | undefined,
    ctx: ServerRequestContext,
  ): Promise<unknown> {
    const client = await this.client().catch((error: unknown) => {
      throw upstreamError(error, 'The upstream server could not be reached');
    });
    this.#inFlight.add(ctx);
    try {
      const result = await this.#calls.run(ctx, () =>
        client.request(method, hopParams(params), {
          signal: ctx.signal,
          ...(ctx.progressToken === undefined
            ? {}
            : {
                onProgress: ({ progress, total, message }) =>
                  void ctx.progress(progress, total, message).catch(() => {}),
              }),
        }),
      );
      return hopResult(result, ctx);
    } catch (error) {
      throw upstreamError(error, 'The upstream server failed the request');
    } finally {
      this.#inFlight.delete(ctx);
    }
  }

  /** Ends the connection for good. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#client?.close().catch(() => {});
  }

  /** The host request an upstream question belongs to: the call it runs in, else the latest call in flight. */
  #currentCall(): ServerRequestContext | undefined {
    return this.#calls.getStore() ?? [...this.#inFlight].at(-1);
  }

  #askHost(): ServerRequestContext {
    const ctx = this.#currentCall();
    if (ctx === undefined) {
      throw new JsonRpcError(-32603, 'The bridge has no call in progress to ask the host through');
    }
    return ctx;
  }

  async #connect(): Promise<Client> {
    if (this.#closed) throw new Error('The upstream connection is closed');
    const wait = this.#notBefore - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const client = new Client(
      { name: 'mcpkit-bridge', version: '0.0.0' },
      {
        handlers: {
          elicitation: (params) => this.#askHost().elicit(params),
          sampling: (params) => this.#askHost().createMessage(params),
          roots: (params) => this.#askHost().listRoots(params),
        },
        capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } },
        refreshListsOnChange: false,
        onLogMessage: (params) => {
          const ctx = this.#currentCall();
          if (ctx) void ctx.log(params.level, params.data, params.logger).catch(() => {});
          else this.#options.onLog?.(params);
        },
        onWarning: () => {},
        onError: (error) => this.#options.onError?.(error),
      },
    );
    const transport = await this.#options.open();
    const onclose = transport.onclose;
    try {
      await client.connect(transport, { protocolVersion: this.#options.protocolVersion });
    } catch (error) {
      this.#lost();
      throw error;
    }
    // Told when the connection ends by itself, after the client's own handling (pending calls are failed there).
    const clientOnclose = transport.onclose;
    transport.onclose = (reason) => {
      clientOnclose?.call(transport, reason);
      onclose?.call(transport, reason);
      if (this.#closed || this.#client !== client) return;
      this.#client = undefined;
      this.#lost();
      this.#options.onLost?.(reason);
    };
    this.#connectedAt = Date.now();
    this.#client = client;
    await this.#follow(client);
    return client;
  }

  /** Spaces reconnections: a connection lost within 30 s of opening doubles the delay before the next attempt. */
  #lost(): void {
    const quick = Date.now() - this.#connectedAt < 30_000;
    this.#quickLosses = quick ? this.#quickLosses + 1 : 1;
    const base = this.#options.backoffMs ?? 250;
    const delay = Math.min(base * 2 ** (this.#quickLosses - 1), this.#options.maxBackoffMs ?? 10_000);
    this.#notBefore = Date.now() + delay;
  }

  /** Follows list changes, so the host hears about them. */
  async #follow(client: Client): Promise<void> {
    const capabilities = client.serverCapabilities ?? {};
    const filter = {
      toolsListChanged: capabilities.tools?.listChanged === true,
      promptsListChanged: capabilities.prompts?.listChanged === true,
      resourcesListChanged: capabilities.resources?.listChanged === true,
    };
    if (!filter.toolsListChanged && !filter.promptsListChanged && !filter.resourcesListChanged) return;
    await client
      .subscribe(filter, (notification) => this.#changed(notification.method, notification.params))
      .catch(() => {});
  }

  /** Follows updates of one resource (a host subscribed to it). */
  async subscribeResource(uri: string): Promise<void> {
    const client = await this.client();
    await client.subscribe({ resources: [uri] }, (notification) =>
      this.#changed(notification.method, notification.params),
    );
  }

  #changed(method: string, params: unknown): void {
    if (method === 'notifications/resources/updated') {
      const uri = (params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri === 'string') this.#options.onResourceUpdated?.(uri);
      return;
    }
    const kind = /^notifications\/(tools|prompts|resources)\/list_changed$/.exec(method)?.[1];
    if (kind) this.#options.onListChanged?.(kind as 'tools' | 'prompts' | 'resources');
  }
}

function hopParams(params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (params === undefined) return undefined;
  const { _meta, inputResponses: _answers, requestState: _state, ...rest } = params;
  if (_meta === undefined || typeof _meta !== 'object' || _meta === null) return rest;
  const kept = Object.fromEntries(Object.entries(_meta).filter(([key]) => !HOP_META.test(key)));
  return Object.keys(kept).length ? { ...rest, _meta: kept } : rest;
}

/**
 * An upstream result without what belongs to the upstream hop: a 2026-07-28 upstream's `resultType` and serverInfo
 * (the host's side completes results of its own era itself), and for a 2025-era host the cache hints it has no
 * field for. Without this a 2025-era host read 2026-07-28 fields in its results.
 */
function hopResult(result: unknown, ctx: ServerRequestContext): unknown {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  const { resultType, ttlMs, cacheScope, _meta, ...rest } = result as Record<string, unknown>;
  const out: Record<string, unknown> = rest;
  if (resultType !== undefined && resultType !== 'complete') out.resultType = resultType;
  if (ctx.era === 'modern') {
    if (ttlMs !== undefined) out.ttlMs = ttlMs;
    if (cacheScope !== undefined) out.cacheScope = cacheScope;
  }
  if (typeof _meta === 'object' && _meta !== null) {
    const kept = Object.entries(_meta).filter(([key]) => !HOP_META.test(key));
    if (kept.length > 0) out._meta = Object.fromEntries(kept);
  }
  return out;
}

/** What the host gets when the upstream fails: its own JSON-RPC error as it is, else -32603 saying what happened. */
function upstreamError(error: unknown, what: string): JsonRpcError {
  if (error instanceof JsonRpcError) return error;
  if (error instanceof ConnectionClosedError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new JsonRpcError(
      -32603,
      `The upstream server connection ended during the request${cause}. It is restarted for the next request.`,
    );
  }
  return new JsonRpcError(-32603, `${what}: ${error instanceof Error ? error.message : String(error)}`);
}
