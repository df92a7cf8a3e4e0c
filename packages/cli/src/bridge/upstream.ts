import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from '@mcpkit/client';
import { ConnectionClosedError, JsonRpcError, JsonRpcErrorCode, type Transport } from '@mcpkit/jsonrpc-core';
import {
  INPUT_REQUIRED_METHODS,
  type InputRequest,
  type LoggingMessageNotificationParams,
  MetaKeys,
  TASKS_EXTENSION_ID,
} from '@mcpkit/protocol';
import type { ServerRequestContext } from '@mcpkit/server';
import { createdTaskId, hostCapabilities, hostLogLevel } from './crossing';
import { hostResultEra } from './eras/host-results';
import { ForwardedCall, WaitingCalls } from './forwarded-call';
import { TaskSessions } from './task-sessions';

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

/** Options of one {@link Upstream.forward}. */
export interface ForwardOptions {
  /** Declare the 2026-07-28 tasks extension upstream whatever the host declared (the bridge translates the task). */
  declareTasks?: boolean;
  /** A call no host request drives or retries (`start` only): its questions are answered by whoever holds it. */
  detached?: boolean;
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
  readonly #calls = new AsyncLocalStorage<ForwardedCall>();
  readonly #inFlight = new Set<ForwardedCall>();
  /** The `tasks/result` calls in flight by task: where a 2025-11-25 task's questions go. */
  readonly #taskResults = new Map<string, ForwardedCall>();
  readonly #waiting = new WaitingCalls();
  readonly #tasks = new TaskSessions();
  #taskSupport: Map<string, string> | undefined;
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

  /**
   * Sends `method` upstream for the host's request `ctx`, with its progress, cancellation and questions. A 2026-07-28
   * host's retry that answers questions of a call still running drives that call on instead of sending it again.
   */
  async forward(
    method: string,
    params: Record<string, unknown> | undefined,
    ctx: ServerRequestContext,
    options: ForwardOptions = {},
  ): Promise<unknown> {
    const waiting = this.#waiting.resumed(method, params);
    if (waiting !== undefined) return await waiting.drive(ctx);
    return await (await this.start(method, params, ctx, options)).drive(ctx);
  }

  /**
   * Sends `method` upstream and returns the call without driving it: its questions wait until someone answers them
   * (`forward` drives it for the host request; a translated task's `tasks/result` is answered by `tasks/update`).
   */
  async start(
    method: string,
    params: Record<string, unknown> | undefined,
    ctx: ServerRequestContext,
    options: ForwardOptions = {},
  ): Promise<ForwardedCall> {
    const client = await this.client().catch((error: unknown) => {
      throw upstreamError(error, 'The upstream server could not be reached');
    });
    const call = new ForwardedCall(ctx, options.detached === true ? undefined : this.#waiting);
    this.#inFlight.add(call);
    const waitsForTask = method === 'tasks/result' && typeof params?.taskId === 'string' ? params.taskId : undefined;
    if (waitsForTask !== undefined) this.#taskResults.set(waitsForTask, call);
    this.#calls
      .run(call, () =>
        client.request(method, hopParams(method, params), {
          signal: call.signal,
          onProgress: ({ progress, total, message }) => {
            const current = call.ctx;
            if (current.progressToken !== undefined) void current.progress(progress, total, message).catch(() => {});
          },
          // 2026-07-28 upstreams read capabilities per request: the host's (older ones read the bridge's initialize).
          clientCapabilities: hostCapabilities(ctx, options.declareTasks),
          logLevel: hostLogLevel(ctx),
          // `tasks/result` waits until the task ends, however long: the host's own request timeout governs it.
          ...(method === 'tasks/result' ? { timeoutMs: 0 } : {}),
          // A 2026-07-28 upstream's questions name the call they belong to (older ones reach the client's handlers).
          inputHandlers: {
            elicitation: (question) => call.ask({ method: 'elicitation/create', params: question }) as never,
            sampling: (question) => call.ask({ method: 'sampling/createMessage', params: question }) as never,
            roots: (question) => call.ask({ method: 'roots/list', params: question }) as never,
          },
        }),
      )
      .then(
        (value) => {
          this.#tasks.created(createdTaskId(value), ctx.session);
          call.settle({ ok: true, value: hopResult(value, ctx) });
        },
        (error: unknown) =>
          call.settle({ ok: false, error: upstreamError(error, 'The upstream server failed the request') }),
      )
      .finally(() => {
        this.#inFlight.delete(call);
        if (waitsForTask !== undefined && this.#taskResults.get(waitsForTask) === call) {
          this.#taskResults.delete(waitsForTask);
        }
      });
    return call;
  }

  /** 2025-11-25 tools' `execution.taskSupport` by name, listed once (and again for a name it has not seen). */
  async taskSupport(name: string): Promise<string | undefined> {
    if (this.#taskSupport?.has(name) !== true) {
      const tools = await (await this.client()).listAllTools();
      this.#taskSupport = new Map(tools.map((tool) => [tool.name, tool.execution?.taskSupport ?? 'forbidden']));
    }
    return this.#taskSupport.get(name);
  }

  /** Ends the connection for good. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#waiting.abortAll(new Error('The bridge is closing'));
    await this.#client?.close().catch(() => {});
  }

  /** The call an upstream message belongs to: the call it runs in, else the latest call in flight. */
  #currentCall(): ForwardedCall | undefined {
    return this.#calls.getStore() ?? [...this.#inFlight].at(-1);
  }

  /**
   * A legacy upstream's question (a server→client request names no call of ours): a task's question (related-task
   * `_meta`) goes through the `tasks/result` waiting for that task; any other through the current call.
   */
  #askHost(request: InputRequest): Promise<never> {
    const related = (request.params as { _meta?: Record<string, { taskId?: unknown } | undefined> } | undefined)
      ?._meta?.[MetaKeys.RelatedTask]?.taskId;
    const call = (typeof related === 'string' ? this.#taskResults.get(related) : undefined) ?? this.#currentCall();
    if (call === undefined) {
      return Promise.reject(new JsonRpcError(-32603, 'The bridge has no call in progress to ask the host through'));
    }
    return call.ask(request) as Promise<never>;
  }

  async #connect(): Promise<Client> {
    if (this.#closed) throw new Error('The upstream connection is closed');
    const wait = this.#notBefore - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const client = new Client(
      { name: 'mcpkit-bridge', version: '0.0.0' },
      {
        handlers: {
          elicitation: (params) => this.#askHost({ method: 'elicitation/create', params }),
          sampling: (params) => this.#askHost({ method: 'sampling/createMessage', params }),
          roots: (params) => this.#askHost({ method: 'roots/list', params }),
        },
        capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } },
        refreshListsOnChange: false,
        onLogMessage: (params) => {
          const ctx = this.#currentCall()?.ctx;
          if (ctx) void ctx.log(params.level, params.data, params.logger).catch(() => {});
          else this.#options.onLog?.(params);
        },
        onWarning: () => {},
        onError: (error) => this.#options.onError?.(error),
      },
    );
    // Task results (`resultType: "task"`) go back to the host as they are; a remote makes one only for a host that
    // declared the extension (see hostCapabilities).
    client.extend({ id: TASKS_EXTENSION_ID, resultTypes: ['task'] });
    // 2025-11-25 task status changes go to the host session that created the task.
    client.setNotificationHandler('notifications/tasks/status', (params) => this.#tasks.status(params));
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
    this.#taskSupport = undefined;
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

/**
 * The host's params as the upstream gets them: without this hop's `_meta` keys, and, for the requests that have input
 * rounds, without the round's answers and state (they belong to the bridge's rounds; `tasks/update`'s
 * `inputResponses` are the request itself and go on).
 */
function hopParams(method: string, params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (params === undefined) return undefined;
  const rounds = INPUT_REQUIRED_METHODS.has(method);
  const { _meta, ...all } = params;
  let rest = all;
  if (rounds) {
    const { inputResponses: _answers, requestState: _state, ...own } = all;
    rest = own;
  }
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
  hostResultEra(ctx.era).keepHints(out, ttlMs, cacheScope);
  if (typeof _meta === 'object' && _meta !== null) {
    // The related-task key is the result's own (a 2025-11-25 `tasks/result` names its task), not the hop's.
    const kept = Object.entries(_meta).filter(([key]) => key === MetaKeys.RelatedTask || !HOP_META.test(key));
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

/**
 * The task an upstream answered with (either era's shape), or a -32603 saying it answered with none. `taskId`: the
 * task asked about, when there was one (for the error's data).
 */
export function readUpstreamTask<T extends { taskId: string; status: string }>(value: unknown, taskId?: unknown): T {
  const task = value as Partial<T> | undefined;
  if (typeof task?.taskId !== 'string' || typeof task.status !== 'string') {
    throw new JsonRpcError(
      JsonRpcErrorCode.InternalError,
      'The upstream server answered with no task',
      taskId === undefined ? { answer: value } : { taskId, answer: value },
    );
  }
  return task as T;
}
