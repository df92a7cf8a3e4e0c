import {
  AbortLink,
  type AbortSource,
  type AuthInfo,
  ContextVariables,
  JsonRpcError,
  JsonRpcErrorCode,
  type JsonRpcParams,
  type JsonRpcRequest,
  type MessageInfo,
  type RequestId,
  type RequestOptions,
} from '@mcpkit/jsonrpc-core';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitAnswer,
  ElicitFormSchema,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitResult,
  Era,
  Implementation,
  InputRequest,
  ListRootsRequestParams,
  ListRootsResult,
  LoggingLevel,
  ProgressToken,
} from '@mcpkit/protocol';
import type { ContextVariableMap } from '../middleware/variables';
import type { ServerSession } from './session';

export type { Era };

/**
 * The least a caller must provide to run one request through the server (`Server.handle`). jsonrpc-core's
 * `RequestContext` is one; a stateless HTTP handler can build one per request.
 */
export interface DispatchContext {
  readonly requestId: RequestId;
  readonly message: JsonRpcRequest;
  /** Aborted when the request is cancelled or its response can no longer be delivered. */
  readonly signal: AbortSignal;
  /**
   * The same cancellation as `signal` without making an `AbortSignal` (jsonrpc-core's `RequestContext` has one). Absent:
   * the server reads `signal`.
   */
  readonly cancellation?: AbortSource;
  readonly info: MessageInfo;
  /** Sends a notification tied to this request (progress, log messages, listen-stream messages). */
  notify(method: string, params?: JsonRpcParams): Promise<void>;
  /** Sends a server→client request tied to this one. Legacy era only; absent without a long-lived connection. */
  request?<R = unknown>(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<R>;
  /**
   * A lookup a transport makes for itself (the HTTP handler reading `tools/list` for `x-mcp-header` declarations), not
   * a request of the client: it runs no middleware, so it is not logged, traced or rate-limited as one.
   */
  readonly internal?: boolean;
  /**
   * The era the transport decided for this request (`Server.handle(request, { era })`), so the server does not read
   * the envelope again to decide it. Absent: the server decides (the session's fixed era, else the envelope).
   */
  readonly era?: Era;
}

const noProgress = (): Promise<void> => Promise.resolve();

/** Options of one ask (`ctx.elicit`, `ctx.createMessage`, `ctx.listRoots`). */
export interface AskOptions {
  /**
   * The name of this question: its key in the 2026-07-28 `inputRequests` map, which the client answers under the same
   * key in `inputResponses`. Unique within one run of the handler. Default: generated (`elicit-1`, `sample-2`, …).
   * Legacy-era asks are JSON-RPC requests: the key is checked the same way but not sent.
   */
  key?: string;
}

/** The result type of each input request method. */
export interface InputResultOf {
  'elicitation/create': ElicitResult;
  'sampling/createMessage': CreateMessageResult;
  'roots/list': ListRootsResult;
}

/** The answers to {@link ServerRequestContext.ask}'s map of named input requests, under the same names. */
export type InputAnswers<T extends Record<string, InputRequest>> = {
  [K in keyof T]: InputResultOf[T[K]['method']];
};

/** One input request a handler makes (elicitation, sampling, roots), as a {@link RequestChannel} receives it. */
export interface InputAsk {
  method: InputRequest['method'];
  params: object | undefined;
  /** The request's key, unique within this run of the handler (the handler's own name, or `elicit-1`, …). */
  key: string;
}

/**
 * Where a request's handler talks once an extension took it beyond the request itself (tasks: the handler keeps
 * running after the request was answered with a task). Every member is optional: what is left out keeps going the
 * request's own way.
 */
export interface RequestChannel {
  /** Replaces the handler's signal (tasks: aborted by `tasks/cancel`). */
  readonly signal?: AbortSignal;
  /** Where `notify`, `progress` and `log` send. */
  notify?(method: string, params?: JsonRpcParams): Promise<void>;
  /** Where legacy server→client requests go (tasks: on the stream of a waiting `tasks/result`). */
  request?(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<unknown>;
  /** Answers the handler's input requests, in both eras (tasks: status `input_required` until the client answers). */
  ask?(input: InputAsk): Promise<unknown>;
}

/**
 * @internal How a handler's asks reach the client in one era: the server's `InputRounds` has one per era (where the
 * rules live: keys, capabilities, input rounds), and the era object hands its own to the request context. A server
 * without `InputRounds` has no `InputRoute`, and every ask fails with ERR_INPUT_ROUNDS_OFF.
 */
export interface InputRoute {
  /** One ask under the handler's `name` for it (or a generated key), resolved with its checked answer. */
  askOne(
    ctx: ServerRequestContext<object>,
    method: InputRequest['method'],
    params: object | undefined,
    name: string | undefined,
  ): Promise<unknown>;
  /** Several asks at once, each under its name (legacy: all checked before any is sent). */
  askAll(ctx: ServerRequestContext<object>, requests: Record<string, InputRequest>): Promise<Record<string, unknown>>;
}

/**
 * @internal The era object that builds a request context (`eras/`), as the context sees it: the era's name, what the
 * server declares, and what a handler does differently in the era (where its asks go, which of its logs go out).
 */
export interface RequestEra {
  readonly era: Era;
  /** Whether `logging` is declared. */
  loggingDeclared(): boolean;
  /** Where asks go in this era: the server's `InputRounds` route for it, when the server has `InputRounds`. */
  readonly inputRoute: InputRoute | undefined;
  /** Whether a log message at `level` from the handler of `ctx` goes out (the threshold is the era's). */
  logs(ctx: ServerRequestContext<object>, level: LoggingLevel): boolean;
}

/**
 * What a handler knows about the request it answers, and what it can do while answering: report progress, log,
 * ask the client (elicitation, sampling, roots) — the same API in both eras, through the server's `InputRounds`
 * (`McpServer` has one; `McpToolServer` and `Server` only when given `inputRounds`, else an ask fails the request with
 * -32603 `ERR_INPUT_ROUNDS_OFF`).
 *
 * @example
 * server.registerTool('deploy', { inputSchema: z.object({ service: z.string() }) }, async ({ service }, ctx) => {
 *   await ctx.progress(0, 2, 'checking');
 *   const answer = await ctx.elicit({ message: `Deploy ${service}?`, requestedSchema: { type: 'object', properties: {} } });
 *   if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Cancelled.' }] };
 *   ctx.signal.throwIfAborted();
 *   await ctx.log('info', { deployed: service });
 *   return { content: [{ type: 'text', text: 'Deployed.' }] };
 * });
 */
export class ServerRequestContext<V extends object = ContextVariableMap> extends ContextVariables<V> {
  /** Tells a request context from a notification one (middleware sees both). */
  readonly kind = 'request' as const;
  readonly requestId: RequestId;
  readonly method: string;
  readonly era: Era;
  readonly protocolVersion: string;
  /** The client's capabilities: from this request's envelope (modern) or from `initialize` (legacy). */
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** The session the request arrived on; `undefined` when run through `Server.handle` without one. */
  readonly session: ServerSession | undefined;
  /** The request's progress token, if it carried one. */
  readonly progressToken: ProgressToken | undefined;
  /** The level at and above which `log` sends (legacy: `logging/setLevel`; modern: the request's `logLevel`). */
  readonly logLevel: LoggingLevel | undefined;
  readonly #dispatch: DispatchContext;
  readonly #era: RequestEra;
  readonly #loggingDeclared: boolean;
  /** The handler's own abort (modern asking methods: set aside alone by an input round), made on first use. */
  #link: AbortLink | undefined = undefined;
  /** @internal Whether the method may answer `input_required` (modern tools/call, prompts/get, resources/read). */
  readonly mayAsk: boolean;
  /** Where asks go: the era's route through the server's `InputRounds`, when it has one. */
  readonly #inputs: InputRoute | undefined;
  #round: ((input: InputAsk) => Promise<unknown>) | undefined = undefined;
  #channel: RequestChannel | undefined = undefined;

  /** @internal Built by the server's dispatcher. */
  constructor(
    dispatch: DispatchContext,
    era: RequestEra,
    protocolVersion: string,
    clientCapabilities: ClientCapabilities,
    clientInfo: Implementation | undefined,
    session: ServerSession | undefined,
    logLevel: LoggingLevel | undefined,
    mayAsk: boolean,
  ) {
    super();
    this.#dispatch = dispatch;
    this.#era = era;
    const message = dispatch.message;
    this.requestId = message.id;
    this.method = message.method;
    this.era = era.era;
    this.protocolVersion = protocolVersion;
    this.clientCapabilities = clientCapabilities;
    this.clientInfo = clientInfo;
    this.session = session;
    this.logLevel = logLevel;
    this.mayAsk = mayAsk;
    this.#loggingDeclared = era.loggingDeclared();
    this.#inputs = era.inputRoute;
    const meta = (message.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta;
    const token = meta?.progressToken;
    this.progressToken = typeof token === 'string' || typeof token === 'number' ? token : undefined;
  }

  /**
   * Aborted when the client cancels the request, when its response can no longer be delivered, when the connection
   * closes, and (modern era) when the handler was set aside because it asked the client for input.
   */
  get signal(): AbortSignal {
    const rebound = this.#channel?.signal;
    if (rebound !== undefined) return rebound;
    if (!this.mayAsk) return this.#dispatch.signal;
    return this.#handlerLink().signal;
  }

  /**
   * The same cancellation as {@link signal}, as a plain `AbortSource`: reading it makes no `AbortSignal`. Pass it as the
   * `signal` of a request sent on this one's behalf, where an `AbortSignal` per request would cost more than the
   * request (the gateway forwards every call with it).
   *
   * @example
   * server.tool('proxy', schema, (args, ctx) =>
   *   upstream.callTool({ name: 'work', arguments: args }, { signal: ctx.cancellation }),
   * );
   */
  get cancellation(): AbortSource {
    const rebound = this.#channel?.signal;
    if (rebound !== undefined) return rebound;
    if (!this.mayAsk) return this.#dispatch.cancellation ?? this.#dispatch.signal;
    return this.#handlerLink();
  }

  #handlerLink(): AbortLink {
    let link = this.#link;
    if (link === undefined) {
      link = new AbortLink();
      this.#link = link;
      // Never unlinked: the dispatch's cancellation lives as long as the request.
      link.follow(this.#dispatch.cancellation ?? this.#dispatch.signal);
    }
    return link;
  }

  /** The request's params as received (`_meta` included). */
  get params(): Record<string, unknown> | undefined {
    return this.#dispatch.message.params as Record<string, unknown> | undefined;
  }

  /** What the transport knows about the request (auth, HTTP request data). */
  get info(): MessageInfo {
    return this.#dispatch.info;
  }

  /** The authenticated identity, when the transport or auth layer verified one. */
  get auth(): AuthInfo | undefined {
    return this.#dispatch.info.auth;
  }

  /** Sends a notification tied to this request. */
  notify(method: string, params?: JsonRpcParams): Promise<void> {
    const channel = this.#channel;
    if (channel?.notify !== undefined) return channel.notify(method, params);
    return this.#dispatch.notify(method, params);
  }

  /**
   * For extensions that keep a handler running beyond its request (tasks): from now on its signal, notifications,
   * server→client requests and input requests go through `channel`; what `channel` leaves out keeps going the
   * request's way. Call it before `next()` in a middleware.
   *
   * @example
   * server.use(forTool('report', async (ctx, next) => {
   *   if (ctx.kind !== 'request') return next();
   *   const job = new AbortController();
   *   ctx.rebind({ signal: job.signal, notify: async (method, params) => void jobLog.push({ method, params }) });
   *   void next().then(store.finish, store.fail);
   *   return { content: [{ type: 'text', text: 'started' }] };
   * }));
   */
  rebind(channel: RequestChannel): void {
    this.#channel = channel;
  }

  /**
   * Reports progress (`notifications/progress`), when the request carried a progress token; otherwise does nothing.
   * `message` is dropped in 2024-11-05, which lacks it.
   */
  progress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.progressToken === undefined) return noProgress();
    const params: Record<string, unknown> = { progressToken: this.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && this.protocolVersion !== '2024-11-05') params.message = message;
    return this.notify('notifications/progress', params);
  }

  /**
   * Sends a log message (`notifications/message`) tied to this request, if the server declared `logging` and the
   * level passes: legacy — the session's `logging/setLevel` (everything until one is set); modern — only when the
   * request's `_meta` set a `logLevel`, at or above it.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    if (!this.#loggingDeclared || !this.#era.logs(this, level)) return Promise.resolve();
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params.logger = logger;
    return this.notify('notifications/message', params);
  }

  /**
   * Asks the user for input through the client (`elicitation/create`), form or URL mode. `options.key` names the
   * question (its `inputRequests` key in 2026-07-28). A form's answer is typed from its `requestedSchema`, as tool
   * arguments are from `inputSchema`.
   *
   * @example
   * const answer = await ctx.elicit({
   *   message: 'Deploy where?',
   *   requestedSchema: { type: 'object', properties: { region: { type: 'string', enum: ['eu', 'us'] } }, required: ['region'] },
   * });
   * if (answer.action === 'accept') deploy(answer.content?.region); // 'eu' | 'us'
   */
  elicit<const S extends ElicitFormSchema>(
    params: Omit<ElicitRequestFormParams, 'requestedSchema'> & { requestedSchema: S },
    options?: AskOptions,
  ): Promise<ElicitAnswer<S>>;
  elicit(params: ElicitRequestParams, options?: AskOptions): Promise<ElicitResult>;
  elicit(params: ElicitRequestParams, options?: AskOptions): Promise<ElicitResult> {
    return this.#ask('elicitation/create', params, options?.key) as Promise<ElicitResult>;
  }

  /** Asks the client's model for a completion (`sampling/createMessage`), with tools if the client supports them. */
  createMessage(params: CreateMessageRequestParams, options?: AskOptions): Promise<CreateMessageResult> {
    return this.#ask('sampling/createMessage', params, options?.key) as Promise<CreateMessageResult>;
  }

  /** Asks the client for its roots (`roots/list`). */
  listRoots(params?: ListRootsRequestParams, options?: AskOptions): Promise<ListRootsResult> {
    return this.#ask('roots/list', params, options?.key) as Promise<ListRootsResult>;
  }

  /**
   * Asks several questions at once, each under its name, and resolves with the answers under the same names. In
   * 2026-07-28 they go out together as one `input_required` result whose `inputRequests` keys are these names; in
   * older revisions as concurrent server→client requests. Each request is checked against the client's capabilities
   * as the single asks are.
   *
   * @example
   * server.registerTool('greet', {}, async (_args, ctx) => {
   *   const { user_name, client_roots } = await ctx.ask({
   *     user_name: {
   *       method: 'elicitation/create',
   *       params: { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
   *     },
   *     client_roots: { method: 'roots/list' },
   *   });
   *   return { content: [{ type: 'text', text: `Hello ${user_name.content?.name}, ${client_roots.roots.length} roots` }] };
   * });
   */
  ask<const T extends Record<string, InputRequest>>(requests: T): Promise<InputAnswers<T>> {
    const inputs = this.#inputs;
    if (inputs === undefined) return this.#inputsOff(Object.values(requests)[0]?.method);
    return inputs.askAll(this, requests) as Promise<InputAnswers<T>>;
  }

  #ask(method: InputRequest['method'], params: object | undefined, name: string | undefined): Promise<unknown> {
    const inputs = this.#inputs;
    return inputs === undefined ? this.#inputsOff(method) : inputs.askOne(this, method, params, name);
  }

  #inputsOff(method: string | undefined): Promise<never> {
    return Promise.reject(
      new JsonRpcError(
        JsonRpcErrorCode.InternalError,
        `'${this.method}' asked the client for input (${method}), but this server has no input rounds: pass { inputRounds: new InputRounds() } (from @mcpkit/server) to McpToolServer or Server, or use McpServer`,
        { code: 'ERR_INPUT_ROUNDS_OFF', method: this.method, input: method },
      ),
    );
  }

  /** @internal Where this request's modern asks go from now on (set by `InputRounds` before the handler runs). */
  askWith(round: (input: InputAsk) => Promise<unknown>): void {
    this.#round = round;
  }

  /** @internal The input round this run of the handler asks in (modern era), if one is running. */
  get round(): ((input: InputAsk) => Promise<unknown>) | undefined {
    return this.#round;
  }

  /** @internal The request as the transport gave it (legacy asks send server→client requests through it). */
  get dispatchContext(): DispatchContext {
    return this.#dispatch;
  }

  /** @internal Where an extension rebound the handler's talk (see `rebind`), if it did. */
  get channel(): RequestChannel | undefined {
    return this.#channel;
  }

  /** @internal Sets the handler aside: aborts its signal. */
  abandon(reason: unknown): void {
    this.#link?.abort(reason);
  }
}
