import { isJsonObject, type JsonRpcParams, type MessageInfo } from '@mcpkit/jsonrpc-core';
import {
  assertCapability,
  capabilitiesFromPaths,
  hasCapability,
  type InputRequest,
  type InputRequests,
  invalidParamsError,
  missingRequiredClientCapabilityError,
  requiredCapability,
} from '@mcpkit/protocol';
import type { ServerRequestHandler } from '../server/handlers';
import type { DispatchContext, InputAsk, InputRoute, RequestChannel, ServerRequestContext } from '../session/context';
import { checkAnswer } from './input-answers';
import { type NonceStore, paramsDigest, RequestStateCodec } from './request-state';

/** Options of {@link InputRounds} (also accepted by `McpServer`'s options, which builds its `InputRounds` from them). */
export interface InputRoundsOptions {
  /**
   * The HMAC key that protects `requestState` tokens. Default: a random key per process — tokens then do not survive
   * a restart or a hop between instances, so servers behind a load balancer must share one secret.
   */
  requestStateSecret?: string | Uint8Array | CryptoKey;
  /** How long a `requestState` token is valid. Default 10 minutes. */
  requestStateTtlMs?: number;
  /** Where used `requestState` nonces are remembered. Default: bounded, in memory (`InMemoryNonceStore`). */
  nonceStore?: NonceStore;
  /**
   * Who a request is from, bound into `requestState` so one principal cannot use another's token. Default: the
   * `clientId` and `subject` of `info.auth`, when present.
   */
  principalOf?: (info: MessageInfo) => string | undefined;
}

function defaultPrincipal(info: MessageInfo): string | undefined {
  const auth = info.auth;
  if (auth === undefined) return undefined;
  return `${auth.clientId ?? ''}\u0000${auth.subject ?? ''}`;
}

/** An ask an extension answers (tasks: through `ctx.rebind({ ask })`), its answer checked like any other. */
function askChannel(ask: NonNullable<RequestChannel['ask']>, input: InputAsk): Promise<unknown> {
  try {
    return ask(input).then((answer) => checkAnswer(input.method, input.key, answer));
  } catch (error) {
    return Promise.reject(error);
  }
}

// What a generated key starts with, per method.
const KEY_PREFIX: Record<InputRequest['method'], string> = {
  'elicitation/create': 'elicit',
  'sampling/createMessage': 'sample',
  'roots/list': 'roots',
};

/** The answers of a run that carries none: read, never written. */
const NO_ANSWERS: Readonly<Record<string, unknown>> = Object.freeze({});

// The keys asked in each run of a handler (one context per run; a key names one question), and how many were generated.
const askedKeys = new WeakMap<object, { keys: Set<string>; generated: number }>();

/** The key of one ask: the handler's name for it, or a generated one; each key once per run of the handler. */
function claimKey(ctx: object, method: InputRequest['method'], name: string | undefined): string {
  if (name !== undefined && (typeof name !== 'string' || name === '')) {
    throw new TypeError(`${method}: an input request key must be a non-empty string, got ${JSON.stringify(name)}`);
  }
  let asked = askedKeys.get(ctx);
  if (asked === undefined) {
    asked = { keys: new Set(), generated: 0 };
    askedKeys.set(ctx, asked);
  }
  const key = name ?? `${KEY_PREFIX[method]}-${++asked.generated}`;
  if (asked.keys.has(key)) {
    throw new Error(
      `${method}: the input request key '${key}' was already asked in this run of the handler; give each question its own key`,
    );
  }
  asked.keys.add(key);
  return key;
}

/** Asks several questions, each under its name; resolves with the answers under the same names. */
function askEach(
  route: InputRoute,
  ctx: ServerRequestContext<object>,
  requests: Record<string, InputRequest>,
  names: readonly string[],
): Promise<Record<string, unknown>> {
  const asked = names.map((name) => {
    const request = requests[name]!;
    return route.askOne(ctx, request.method, request.params, name);
  });
  return Promise.all(asked).then((answers) => {
    const byName: Record<string, unknown> = {};
    for (const [index, name] of names.entries()) byName[name] = answers[index];
    return byName;
  });
}

/** One ask under the handler's name for it (or a generated key), sent by `send`. */
function claimAndSend(
  ctx: ServerRequestContext<object>,
  method: InputRequest['method'],
  params: object | undefined,
  name: string | undefined,
  send: (ctx: ServerRequestContext<object>, input: InputAsk) => Promise<unknown>,
): Promise<unknown> {
  let key: string;
  try {
    key = claimKey(ctx, method, name);
  } catch (error) {
    return Promise.reject(error);
  }
  return send(ctx, { method, params, key });
}

/**
 * How a handler asks in the legacy era: a server→client request tied to the current one, sent now, after a check of
 * the capabilities the client declared in `initialize` (a `CapabilityError` naming what is missing; nothing is sent).
 */
class RequestAsks implements InputRoute {
  askOne(
    ctx: ServerRequestContext<object>,
    method: InputRequest['method'],
    params: object | undefined,
    name: string | undefined,
  ): Promise<unknown> {
    return claimAndSend(ctx, method, params, name, requestAsk);
  }

  /** Asks made together are all or nothing: every one is checked before any is sent. */
  askAll(ctx: ServerRequestContext<object>, requests: Record<string, InputRequest>): Promise<Record<string, unknown>> {
    const names = Object.keys(requests);
    try {
      for (const name of names) {
        const { method, params } = requests[name]!;
        assertCapability(method, ctx.protocolVersion, { client: ctx.clientCapabilities }, params, {
          receiver: 'client',
        });
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return askEach(this, ctx, requests, names);
  }
}

function requestAsk(ctx: ServerRequestContext<object>, input: InputAsk): Promise<unknown> {
  const { method, params } = input;
  try {
    assertCapability(method, ctx.protocolVersion, { client: ctx.clientCapabilities }, params, { receiver: 'client' });
  } catch (error) {
    return Promise.reject(error);
  }
  const channel = ctx.channel;
  if (channel?.ask !== undefined) return askChannel(channel.ask, input);
  if (channel?.request !== undefined) {
    return channel
      .request(method, params as JsonRpcParams | undefined)
      .then((answer) => checkAnswer(method, method, answer));
  }
  const dispatch = ctx.dispatchContext;
  const request = dispatch.request;
  if (request === undefined) {
    return Promise.reject(
      new Error(`Cannot send '${method}' to the client: this request has no connection to send requests on`),
    );
  }
  return request
    .call(dispatch, method, params as JsonRpcParams | undefined)
    .then((answer) => checkAnswer(method, method, answer));
}

/**
 * How a handler asks in 2026-07-28: within the input round `InputRounds.run` opened for this run of the handler (only
 * methods that may answer `input_required`, and only what the request's envelope says the client supports).
 */
class RoundAsks implements InputRoute {
  askOne(
    ctx: ServerRequestContext<object>,
    method: InputRequest['method'],
    params: object | undefined,
    name: string | undefined,
  ): Promise<unknown> {
    return claimAndSend(ctx, method, params, name, roundAsk);
  }

  /** Asks made together go out together, as one `input_required` result. */
  askAll(ctx: ServerRequestContext<object>, requests: Record<string, InputRequest>): Promise<Record<string, unknown>> {
    return askEach(this, ctx, requests, Object.keys(requests));
  }
}

function roundAsk(ctx: ServerRequestContext<object>, input: InputAsk): Promise<unknown> {
  const { method, params } = input;
  if (!ctx.mayAsk) {
    return Promise.reject(
      new Error(
        `'${ctx.method}' cannot ask the client for input: in ${ctx.protocolVersion} only tools/call, prompts/get and resources/read may answer input_required`,
      ),
    );
  }
  const required = requiredCapability(method, ctx.protocolVersion, params, { receiver: 'client' }) ?? [];
  const missing = required.filter((requirement) => !hasCapability(ctx.clientCapabilities, requirement.path));
  if (missing.length > 0) {
    return Promise.reject(
      missingRequiredClientCapabilityError(capabilitiesFromPaths(missing.map((requirement) => requirement.path))),
    );
  }
  const channel = ctx.channel;
  if (channel?.ask !== undefined) return askChannel(channel.ask, input);
  const round = ctx.round;
  if (round === undefined) {
    return Promise.reject(new Error(`'${ctx.method}' asked for input outside an input round`));
  }
  return round(input);
}

/**
 * How handlers ask the client for input (`ctx.elicit`, `ctx.createMessage`, `ctx.listRoots`, `ctx.ask`), in both
 * eras. Legacy revisions: a server→client request tied to the current one, refused with a `CapabilityError` when the
 * client did not declare what it needs. 2026-07-28: Multi Round-Trip Requests — the first unanswered ask turns the
 * result into `input_required` with a `requestState` token (HMAC-signed, bound to method, params digest and
 * principal, single use); the client's retry replays the handler with the answers from the verified token and its
 * `inputResponses`.
 *
 * `McpServer` has one built from its options. `McpToolServer` and `Server` have none unless given one in
 * `inputRounds`, so their bundles carry none of this code: without it a handler's ask fails the request with -32603
 * `ERR_INPUT_ROUNDS_OFF`, a message naming the option.
 *
 * @example
 * const server = new McpToolServer(info, { inputRounds: new InputRounds({ requestStateSecret: process.env.MCP_STATE_SECRET }) });
 * server.registerTool('deploy', {}, async (_args, ctx) => {
 *   const answer = await ctx.elicit({ message: 'Deploy?', requestedSchema: { type: 'object', properties: {} } });
 *   return { content: [{ type: 'text', text: answer.action }] };
 * });
 */
export class InputRounds {
  readonly #codec: RequestStateCodec;
  readonly #principalOf: (info: MessageInfo) => string | undefined;
  /** @internal How a legacy-era handler asks (the legacy era object hands it to its request contexts). */
  readonly byRequest: InputRoute = new RequestAsks();
  /** @internal How a 2026-07-28 handler asks, within the round `run` opened (handed out by the modern era object). */
  readonly inRound: InputRoute = new RoundAsks();

  constructor(options: InputRoundsOptions = {}) {
    this.#codec = new RequestStateCodec({
      secret: options.requestStateSecret,
      ttlMs: options.requestStateTtlMs,
      nonceStore: options.nonceStore,
    });
    this.#principalOf = options.principalOf ?? defaultPrincipal;
  }

  /**
   * @internal Runs one round of `handler`: answers from the verified `requestState` and `inputResponses` replay
   * earlier asks (answers without a `requestState` are taken as they are: the client's own answers, checked like any
   * other); the first unanswered ask resolves with `input_required` and sets this run of the handler aside.
   */
  run(
    handler: ServerRequestHandler<never>,
    params: Record<string, unknown>,
    ctx: ServerRequestContext,
    dctx: DispatchContext,
  ): Promise<unknown> {
    const responses = params.inputResponses;
    if (responses !== undefined && !isJsonObject(responses)) {
      return Promise.reject(
        invalidParamsError('inputResponses must be an object of answers by input request key', {
          inputResponses: responses,
        }),
      );
    }
    if (params.requestState !== undefined) return this.#replay(handler, params, responses, ctx, dctx);
    // Answers without a requestState (the client answered an input_required that carried none, or answers up
    // front): as trustworthy as any answer of this client, since the client is who answers. Each is still checked
    // against the shape of its result when the handler asks for its key; keys it never asks are ignored. Most calls
    // carry none: they share one empty object and this round costs no async frame.
    return this.#round(handler, params, ctx, dctx, responses === undefined ? NO_ANSWERS : { ...responses });
  }

  /** A retry with a `requestState`: the answers of the verified token, then the round. */
  async #replay(
    handler: ServerRequestHandler<never>,
    params: Record<string, unknown>,
    responses: Record<string, unknown> | undefined,
    ctx: ServerRequestContext,
    dctx: DispatchContext,
  ): Promise<unknown> {
    const principal = this.#principalOf(dctx.info);
    const state = await this.#codec.verify(params.requestState, { method: ctx.method, params, principal });
    const answers: Record<string, unknown> = { ...state.r };
    if (responses !== undefined) {
      // Only the keys this token asked for; others are ignored, as the spec advises.
      for (const key of state.a) if (Object.hasOwn(responses, key)) answers[key] = responses[key];
    }
    return this.#round(handler, params, ctx, dctx, answers);
  }

  /** Runs the handler with `answers`; the first ask they do not answer ends the round with `input_required`. */
  #round(
    handler: ServerRequestHandler<never>,
    params: Record<string, unknown>,
    ctx: ServerRequestContext,
    dctx: DispatchContext,
    answers: Readonly<Record<string, unknown>>,
  ): Promise<unknown> {
    const method = ctx.method;
    return new Promise<unknown>((resolve, reject) => {
      // Made on the first unanswered ask: most runs never ask.
      let inputs: InputRequests | undefined;
      let keys: string[] | undefined;
      ctx.askWith((ask) => {
        if (Object.hasOwn(answers, ask.key)) {
          try {
            return Promise.resolve(checkAnswer(ask.method, ask.key, answers[ask.key]));
          } catch (error) {
            return Promise.reject(error);
          }
        }
        if (inputs === undefined || keys === undefined) {
          inputs = {};
          keys = [];
          const asked = keys;
          // Give the handler a macrotask to make the asks it makes concurrently (Promise.all), then answer with all.
          setTimeout(() => {
            paramsDigest(params)
              .then((digest) =>
                this.#codec.sign({ m: method, d: digest, p: this.#principalOf(dctx.info), r: answers, a: asked }),
              )
              .then((requestState) => {
                ctx.abandon(
                  new Error(`'${method}' needs input from the client; this run of the handler was set aside`),
                );
                resolve({ resultType: 'input_required', inputRequests: inputs, requestState });
              }, reject);
          }, 0);
        }
        const { method: askMethod, params: askParams } = ask;
        inputs[ask.key] = (
          askParams === undefined ? { method: askMethod } : { method: askMethod, params: askParams }
        ) as InputRequests[string];
        keys.push(ask.key);
        // Never settles: this round answers input_required and sets this run of the handler aside.
        return new Promise(() => {});
      });
      try {
        Promise.resolve(handler(params as never, ctx)).then(resolve, reject);
      } catch (error) {
        reject(error);
      }
    });
  }
}
