import {
  isJsonObject,
  type JsonObject,
  type JsonRpcPeer,
  type MiddlewareChain,
  type RequestOptions,
} from '@mcpkit/jsonrpc-core';
import {
  assertCapability,
  CapabilityError,
  type ClientCapabilities,
  INPUT_REQUIRED_METHODS,
  isRequestMethod,
  methodAvailability,
} from '@mcpkit/protocol';
import type { Connection, SessionState } from './eras/client-era';
import { McpClientError } from './errors';
import { completeWithInput, isInputRequired, isOwnedByExtension } from './input-loop';
import { explainMissingInputCapability } from './input-requests';
import { type ClientContext, ClientRequestContext } from './middleware';
import type { CallOptions, InputHandlers, RequestCallOptions, ResultSchema } from './options';
import type { ResponseCache } from './response-cache';

/** What the client settled once, in its constructor. */
export interface RequestSettings {
  readonly capabilities: ClientCapabilities;
  readonly handlers: InputHandlers;
  /** Refuse calls the server did not declare (`enforceServerCapabilities`). */
  readonly enforce: boolean;
  readonly timeoutMs: number;
  readonly maxTotalTimeoutMs: number;
  readonly maxInputRounds: number;
  readonly cache: ResponseCache | undefined;
  /** The authorization context of a request, read per request (`authContextKey`). */
  readonly authContext: () => string;
  /** `client.use()`: around every request sent (each input round too). Empty: no cost. */
  readonly middleware: MiddlewareChain<ClientContext, unknown>;
  /** `resultType`s an extension owns: such results go back to the caller as they are. */
  readonly extensionResultTypes: ReadonlySet<string>;
}

/** How one method behaves in the pipeline. */
export interface CallBehaviour {
  /** Cache key of a cacheable request (in an era that caches results), or undefined when the method is not cacheable. */
  cacheKey?: string;
  /** The method may answer `input_required` (tools/call, prompts/get, resources/read). */
  mayNeedInput?: boolean;
  /** Applied to a complete result before it is cached and returned. */
  transform?: (result: JsonObject) => JsonObject;
  /**
   * Not an MCP method (an extension's or the application's): no availability or capability check, which only know
   * the spec's methods.
   */
  custom?: boolean;
}

/** The options and behaviour of a call that passes none: shared, never written to. */
const NO_CALL_OPTIONS: CallOptions = Object.freeze({});
const NO_BEHAVIOUR: CallBehaviour = Object.freeze({});

/**
 * How `client.request(method)` goes through the pipeline: the spec's request methods (protocol's method table) are
 * checked against the revision; a method the spec does not have is the app's own and is sent unchecked.
 */
export function behaviourOf(method: string): CallBehaviour {
  const mayNeedInput = INPUT_REQUIRED_METHODS.has(method);
  // One of four shared answers rather than an object per request.
  if (isRequestMethod(method)) return mayNeedInput ? SPEC_MAY_NEED_INPUT : SPEC_REQUEST;
  return mayNeedInput ? CUSTOM_MAY_NEED_INPUT : CUSTOM_REQUEST;
}

const SPEC_REQUEST: CallBehaviour = Object.freeze({ mayNeedInput: false, custom: false });
const SPEC_MAY_NEED_INPUT: CallBehaviour = Object.freeze({ mayNeedInput: true, custom: false });
const CUSTOM_REQUEST: CallBehaviour = Object.freeze({ mayNeedInput: false, custom: true });
const CUSTOM_MAY_NEED_INPUT: CallBehaviour = Object.freeze({ mayNeedInput: true, custom: true });

/**
 * What every outgoing request goes through: the method must exist in the revision and (unless enforcement is off)
 * be declared by the server; a fresh cached result answers it; otherwise it is sent with its era's params (the
 * session's era object says how), re-sent once when the era names another version to retry with (2026-07-28, after
 * -32022), taken through `input_required` rounds, and cached.
 */
export class RequestPipeline {
  readonly #settings: RequestSettings;
  readonly #connection: (method: string) => Connection;
  /** What the peer is asked with for a call that has no options of its own (made on first use). */
  #defaultPeerOptions: RequestOptions | undefined = undefined;

  /** `connection` returns the live connection or throws `ERR_NOT_CONNECTED` naming the method. */
  constructor(settings: RequestSettings, connection: (method: string) => Connection) {
    this.#settings = settings;
    this.#connection = connection;
  }

  call<R>(
    method: string,
    input: object | undefined,
    options: CallOptions = NO_CALL_OPTIONS,
    behaviour: CallBehaviour = NO_BEHAVIOUR,
  ): Promise<R> {
    const params = input as JsonObject | undefined;
    let connection: Connection;
    let cacheKey: string | undefined;
    let carriesInput: boolean;
    try {
      connection = this.#connection(method);
      const session = connection.session;
      if (behaviour.custom !== true) this.#check(method, session, params);
      const cache = this.#settings.cache;
      carriesInput = params !== undefined && (params.inputResponses !== undefined || params.requestState !== undefined);
      cacheKey = session.era.cachesResults && cache !== undefined ? behaviour.cacheKey : undefined;
      if (cacheKey !== undefined && !carriesInput && options.cache !== false) {
        const cached = cache!.get(method, cacheKey, this.#settings.authContext());
        if (cached !== undefined) return Promise.resolve(cached as R);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    const { peer, session } = connection;
    // Every request passes here: one .then rather than an async frame; only input rounds need one (#withInput).
    return this.#send(peer, session, method, params, options, 0).then((result) => {
      if (isOwnedByExtension(result, this.#settings.extensionResultTypes)) return result as R;
      const mayNeedInput = behaviour.mayNeedInput === true;
      if (isInputRequired(method, result, session, mayNeedInput)) {
        return this.#withInput<R>(peer, session, method, params, options, behaviour, result);
      }
      // Results of retries carrying inputResponses / requestState must not be cached (SEP-2322).
      return this.#complete<R>(method, behaviour, result, carriesInput ? undefined : cacheKey);
    });
  }

  /** Takes an `input_required` result through its rounds; the complete result is never cached (SEP-2322). */
  async #withInput<R>(
    peer: JsonRpcPeer,
    session: SessionState,
    method: string,
    params: JsonObject | undefined,
    options: CallOptions,
    behaviour: CallBehaviour,
    first: JsonObject,
  ): Promise<R> {
    let round = 0;
    const mayNeedInput = behaviour.mayNeedInput === true;
    const result = await completeWithInput(
      method,
      params,
      first,
      (retry) => this.#send(peer, session, method, retry, options, ++round),
      {
        handlers: options.inputHandlers ?? this.#settings.handlers,
        capabilities: this.#settings.capabilities,
        maxRounds: this.#settings.maxInputRounds,
        session,
        mayNeedInput,
        signal: options.signal,
        extensionResultTypes: this.#settings.extensionResultTypes,
      },
    );
    // The last round may end in a result an extension owns (a tool that gathered input, then became a task).
    if (isOwnedByExtension(result, this.#settings.extensionResultTypes)) return result as R;
    return this.#complete<R>(method, behaviour, result, undefined);
  }

  /** A complete result: transformed, and cached under `cacheKey` when it has one. */
  #complete<R>(method: string, behaviour: CallBehaviour, result: JsonObject, cacheKey: string | undefined): R {
    const complete = behaviour.transform ? behaviour.transform(result) : result;
    if (cacheKey !== undefined) {
      this.#settings.cache!.set(
        method,
        cacheKey,
        this.#settings.authContext(),
        complete,
        complete.ttlMs as number | undefined,
        complete.cacheScope as 'public' | 'private' | undefined,
      );
    }
    return complete as R;
  }

  /**
   * `client.request`: any method, checked as the spec's when it is one, its result validated by `resultSchema` when
   * given. The gateway forwards every call through here: without a schema the pipeline's promise is the answer (no
   * async frame of its own), and a call without options takes the pipeline's shared defaults.
   */
  request<R>(method: string, params: object | undefined, options?: RequestCallOptions<R>): Promise<R> {
    const sent = this.call<unknown>(method, params, options, behaviourOf(method));
    const schema = options?.resultSchema;
    return schema === undefined ? (sent as Promise<R>) : sent.then((result) => checkResult(method, result, schema));
  }

  /** Sends one request through the client's middleware, if it has any. */
  #send(
    peer: JsonRpcPeer,
    session: SessionState,
    method: string,
    params: JsonObject | undefined,
    options: CallOptions,
    round: number,
  ): Promise<JsonObject> {
    const middleware = this.#settings.middleware;
    if (middleware.size === 0) return this.#sendNow(peer, session, method, params, options);
    const ctx = new ClientRequestContext(method, params, session.era.name, session.version, round, options);
    return middleware
      .run(ctx, (c) => {
        const request = c as ClientRequestContext;
        return this.#sendNow(peer, session, request.method, request.params, options, request);
      })
      .then((result) => {
        if (isJsonObject(result)) return result;
        throw new McpClientError(
          'ERR_INVALID_RESULT',
          `${method}: a client middleware answered with a result that is not an object`,
          { method, result },
        );
      });
  }

  /** Sends one request of the session's era; retries once when the era names a version to retry with (-32022). */
  #sendNow(
    peer: JsonRpcPeer,
    session: SessionState,
    method: string,
    params: JsonObject | undefined,
    options: CallOptions,
    ctx?: ClientRequestContext,
  ): Promise<JsonObject> {
    let peerOptions: RequestOptions;
    if (options === NO_CALL_OPTIONS && ctx === undefined) {
      // A call without options (most of them): the client's defaults, one object for every such call.
      peerOptions = this.#defaultPeerOptions ??= Object.freeze({
        timeoutMs: this.#settings.timeoutMs,
        maxTotalTimeoutMs: this.#settings.maxTotalTimeoutMs,
      });
    } else {
      peerOptions = {
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? this.#settings.timeoutMs,
        maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? this.#settings.maxTotalTimeoutMs,
        resetTimeoutOnProgress: options.resetTimeoutOnProgress,
        onProgress: options.onProgress as ((progress: unknown) => void) | undefined,
      };
      // Middleware learns the id the engine gave the request (tracing's jsonrpc.request.id, logs).
      if (ctx !== undefined) peerOptions.onRequest = (request) => ctx.sent(request.id);
    }
    return this.#attempt(peer, session, method, params, options, peerOptions, true);
  }

  /**
   * One send of `#sendNow`. Every request goes through it, so it is one `.then` (a result that must be an object, or
   * the error: retried once when `mayRetry` and the era names another version) rather than an async function, whose
   * frame and await cost more than the request's own objects.
   */
  #attempt(
    peer: JsonRpcPeer,
    session: SessionState,
    method: string,
    params: JsonObject | undefined,
    options: CallOptions,
    peerOptions: RequestOptions,
    mayRetry: boolean,
  ): Promise<JsonObject> {
    const failed = (error: unknown): Promise<JsonObject> => {
      const next = mayRetry ? session.era.retryVersion(error) : undefined;
      if (next === undefined || next === session.version) {
        throw explainMissingInputCapability(error, method, this.#settings.handlers) ?? error;
      }
      session.version = next;
      return this.#attempt(peer, session, method, params, options, peerOptions, false);
    };
    let sent: Promise<unknown>;
    try {
      sent = peer.request(method, session.era.wireParams(session.version, params, options), peerOptions);
    } catch (error) {
      return Promise.reject(error).then(undefined, failed);
    }
    return sent.then((result) => {
      if (isJsonObject(result)) return result;
      throw new McpClientError('ERR_INVALID_RESULT', `${method} answered with a result that is not an object`, {
        method,
        result,
      });
    }, failed);
  }

  /** Refuses, locally, a method the revision does not have or (when enforcing) the server did not declare. */
  #check(method: string, session: SessionState, params: JsonObject | undefined): void {
    const availability = methodAvailability(method, session.version);
    if (!availability.available || availability.kind !== 'request') {
      const reason = availability.available
        ? `'${method}' is not a request in ${session.version}`
        : availability.reason;
      throw new CapabilityError('ERR_METHOD_NOT_AVAILABLE', `${reason}.`, {
        method,
        version: session.version,
        missing: [],
      });
    }
    if (this.#settings.enforce) {
      assertCapability(method, session.version, { server: session.serverCapabilities }, params);
    }
  }
}

/**
 * `client.request`'s `resultSchema`: validates `result` with the Standard Schema (zod, valibot, arktype) and returns
 * its output; a mismatch throws `ERR_INVALID_RESULT` naming the issues.
 */
export async function checkResult<R>(method: string, result: unknown, schema: ResultSchema<R>): Promise<R> {
  let verdict = schema['~standard'].validate(result);
  if (verdict instanceof Promise) verdict = await verdict;
  if (verdict.issues !== undefined) {
    throw new McpClientError(
      'ERR_INVALID_RESULT',
      `${method} answered with a result that does not match resultSchema: ${verdict.issues.map((issue) => issue.message).join('; ')}`,
      { method, result, issues: verdict.issues },
    );
  }
  return verdict.value;
}
