import type { AbortSource, RequestId } from '@mcpkit/jsonrpc-core';
import type {
  CallToolResult,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Era,
  ListRootsRequestParams,
  ListRootsResult,
  LoggingLevel,
  LoggingMessageNotificationParams,
  RequestMeta,
} from '@mcpkit/protocol';
import type { JsonSchemaValidator } from './output-schema';
import type { ResponseCache } from './response-cache';

// `Era` has one home, @mcpkit/protocol; re-exported so `import { type Era } from '@mcpkit/client'` keeps working.
export type { Era } from '@mcpkit/protocol';

/** What an input handler knows about the request it answers. */
export interface InputRequestContext {
  /** Aborted when the request it serves is cancelled, times out, or the client closes. */
  signal: AbortSignal;
  /** `legacy`: a server→client JSON-RPC request; `modern`: an input request inside an `input_required` result. */
  era: Era;
  /** Legacy: the id of the server's request. */
  requestId?: RequestId;
  /**
   * Legacy: the client request this server request was sent for, when the transport knows it (Streamable HTTP: it came
   * on that request's response stream). A proxy uses it to send the question to the right caller.
   */
  relatedRequestId?: RequestId;
  /** Modern: the server's key for this input request. */
  key?: string;
  /** Modern: the method of the client request the input is for (`tools/call`, `prompts/get`, `resources/read`). */
  forMethod?: string;
}

/** What the client knows of where a log message comes from (the second argument of `onLogMessage`). */
export interface LogMessageContext {
  /**
   * The client request the server logged while handling, when the transport knows it (Streamable HTTP: the message came
   * on that request's response stream).
   */
  relatedRequestId?: RequestId;
}

/**
 * Answers to what a server asks the client. The same handlers serve legacy server→client requests and 2026-07-28
 * input requests (`input_required` results).
 */
export interface InputHandlers {
  /** `sampling/createMessage`: run an LLM completion for the server. */
  sampling?: (
    params: CreateMessageRequestParams,
    context: InputRequestContext,
  ) => CreateMessageResult | Promise<CreateMessageResult>;
  /** `elicitation/create`: ask the user (form) or send them to a URL (url mode). */
  elicitation?: (params: ElicitRequestParams, context: InputRequestContext) => ElicitResult | Promise<ElicitResult>;
  /** `roots/list`: the filesystem roots the server may use. */
  roots?: (
    params: ListRootsRequestParams | undefined,
    context: InputRequestContext,
  ) => ListRootsResult | Promise<ListRootsResult>;
}

/** Options of `new LeanClient(info, options)`; `Client` takes these and a few more ({@link ClientOptions}). */
export interface LeanClientOptions {
  /**
   * What the client declares. Default: derived from `handlers` (`sampling: {}`, `elicitation: {form: {}}`,
   * `roots: {listChanged: true}` for each handler given). Declaring a capability without its handler throws.
   */
  capabilities?: ClientCapabilities;
  /** Answers to sampling, elicitation and roots requests. */
  handlers?: InputHandlers;
  /** Refuse (locally, with `CapabilityError`) calls the server did not declare a capability for. Default `true`. */
  enforceServerCapabilities?: boolean;
  /** Idle timeout of a request in ms, restarted by progress. Default 60 000. */
  requestTimeoutMs?: number;
  /** Hard cap of a request in ms, whatever the progress. Default 600 000 (10 minutes). */
  maxTotalTimeoutMs?: number;
  /** How many `input_required` rounds one call may go through before it fails. Default 10. */
  maxInputRounds?: number;
  /**
   * The response cache, or `false` to disable caching. Default: `Client` makes a cache of its own; `LeanClient` caches
   * nothing unless given one. Share one `ResponseCache` between clients to share public entries.
   */
  cache?: ResponseCache | false;
  /**
   * Names the authorization context (e.g. a hash of the access token, or a user id) so `private` cached results are
   * never served to another one. A function is read on every request. Default: one context for this client.
   */
  authContextKey?: string | (() => string | undefined);
  /** Receives `notifications/message` log entries. */
  onLogMessage?: (params: LoggingMessageNotificationParams, context: LogMessageContext) => void;
  /** Receives warnings (dropped tools; `Client`: failed background refreshes). Default `console.warn`. */
  onWarning?: (message: string, data?: Record<string, unknown>) => void;
  /** Receives errors nobody awaits (late responses, malformed messages). */
  onError?: (error: Error) => void;
  /**
   * Checks `structuredContent` against a tool's `outputSchema` in `callTool`. `Client` defaults to
   * `jsonSchemaValidator` (@cfworker/json-schema); `LeanClient` has none, so its bundle carries no JSON Schema code and
   * a result that needs the check fails with `ERR_NO_JSON_SCHEMA_VALIDATOR` until you pass one.
   */
  jsonSchema?: JsonSchemaValidator;
}

/** Options of `new Client(info, options)`: those of `LeanClient`, and the kept lists' (`client.lists`). */
export interface ClientOptions extends LeanClientOptions {
  /** Refetch lists already fetched with `listAll*` when the server says they changed. Default `true`. */
  refreshListsOnChange?: boolean;
  /** Called after a list kept in `client.lists` was refetched because the server said it changed. */
  onListRefreshed?: (kind: 'tools' | 'prompts' | 'resources' | 'resourceTemplates', items: unknown[]) => void;
}

/** Options of `client.connect(transport, options)`. */
export interface ConnectOptions {
  /**
   * Use exactly this protocol version (no probing): a 2026-07-28 version connects in the modern era, an older one
   * sends `initialize` with it.
   */
  protocolVersion?: string;
  /** `auto` (default) probes `server/discover` and falls back to `initialize`; `modern` / `legacy` skip the probe. */
  era?: 'auto' | Era;
  /**
   * How long the `server/discover` probe may stay unanswered, counted from the server's first message, before the client
   * assumes a legacy server. Default 5 000 ms. While the server has said nothing (still starting), the probe waits up
   * to `timeoutMs`.
   */
  probeTimeoutMs?: number;
  /** Timeout of `initialize` / `server/discover` in ms. Default: `requestTimeoutMs`. */
  timeoutMs?: number;
  /** Aborts connecting. */
  signal?: AbortSignal;
}

/** Options of every request method. */
export interface CallOptions {
  /**
   * Aborting it rejects the call and (except for `initialize`) tells the server with `notifications/cancelled`. An
   * `AbortSignal`, or anything that reads like one (`AbortSource`): a server handler's `ctx.cancellation` forwards its
   * request's cancellation without making an `AbortSignal`.
   */
  signal?: AbortSource;
  /** Idle timeout in ms; default the client's `requestTimeoutMs`. */
  timeoutMs?: number;
  /** Restart the idle timeout on progress. Default `true`. */
  resetTimeoutOnProgress?: boolean;
  /** Hard cap in ms; default the client's `maxTotalTimeoutMs`. */
  maxTotalTimeoutMs?: number;
  /** Asks for progress notifications (sets `_meta.progressToken`) and receives them. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** 2026-07-28: the log level wanted for this request (`_meta["io.modelcontextprotocol/logLevel"]`). */
  logLevel?: LoggingLevel;
  /** `false`: do not read the response cache for this call (a fresh result is still stored). Default `true`. */
  cache?: boolean;
  /** Extra `_meta` keys for this request (traces, application keys); envelope keys always win. */
  meta?: RequestMeta;
  /**
   * 2026-07-28: the capabilities this request declares in its `_meta` envelope instead of the client's (a gateway
   * declares its caller's, so a server asks only what the caller can answer). Older revisions declare capabilities
   * once per session, in `initialize`; there it is ignored.
   */
  clientCapabilities?: ClientCapabilities;
  /**
   * Answers this call's 2026-07-28 `input_required` rounds instead of the client's `handlers` (a gateway answers
   * each call's rounds by asking its own caller). Only the kinds the client declared may be asked; a kind missing here
   * fails the round like a missing client handler. Legacy server→client requests are not tied to a call and still
   * reach the client's `handlers`.
   *
   * @example
   * ```ts
   * await client.callTool({ name: 'deploy' }, { inputHandlers: { elicitation: (params) => askMyUser(params) } });
   * ```
   */
  inputHandlers?: InputHandlers;
}

/** A Standard Schema (zod 4, valibot, arktype, …): what `resultSchema` accepts. */
export interface ResultSchema<R> {
  readonly '~standard': {
    validate(
      value: unknown,
    ):
      | { value: R; issues?: undefined }
      | { issues: readonly { message: string }[] }
      | Promise<{ value: R; issues?: undefined } | { issues: readonly { message: string }[] }>;
  };
}

/** Options of `client.request()`: those of every call, and a schema to validate and type the result. */
export interface RequestCallOptions<R = unknown> extends CallOptions {
  /** Validates the result (any Standard Schema); a mismatch throws `ERR_INVALID_RESULT` naming the issues. */
  resultSchema?: ResultSchema<R>;
}

/**
 * Options of `callTool`: those of every request, and the output schema the caller knows for the tool.
 *
 * @example
 * ```ts
 * const forecast = { type: 'object', properties: { celsius: { type: 'array', items: { type: 'number' } } }, required: ['celsius'] } as const;
 * const result = await client.callTool({ name: 'forecast', arguments: { city: 'Paris' } }, { outputSchema: forecast });
 * result.structuredContent?.celsius; // number[]
 * ```
 */
export interface CallToolOptions<O extends Readonly<Record<string, unknown>> | undefined = undefined>
  extends CallOptions {
  /**
   * The JSON Schema the caller expects `structuredContent` to match (e.g. the tool's `outputSchema`, copied from
   * `tools/list` or shared with the server's code). It types `structuredContent` (see `InferJsonSchema`), and the
   * result is checked against it instead of the listed one (`ERR_INVALID_STRUCTURED_CONTENT` when it does not match).
   */
  outputSchema?: O;
}

/** A `CallToolResult` whose `structuredContent` has the type `S` the caller knows. */
export type TypedCallToolResult<S> = Omit<CallToolResult, 'structuredContent'> & { structuredContent?: S };
