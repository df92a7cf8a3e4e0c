import { isJsonObject, type MessageInfo } from '@mcpkit/jsonrpc-core';
import { type InputRequests, invalidParamsError } from '@mcpkit/protocol';
import type { DispatchContext, ServerRequestContext } from './context';
import type { ServerRequestHandler } from './handlers';
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

/**
 * Multi Round-Trip Requests (2026-07-28), server side: how a `tools/call`, `prompts/get` or `resources/read` handler
 * asks the client for input (`ctx.elicit`, `ctx.createMessage`, `ctx.listRoots`, `ctx.ask`) in the stateless era. The
 * first unanswered ask turns the result into `input_required` with a `requestState` token (HMAC-signed, bound to
 * method, params digest and principal, single use); the client's retry replays the handler with the answers from
 * the verified token and its `inputResponses`.
 *
 * `McpServer` has one built from its options. `McpToolServer` and `Server` have none unless given one in
 * `inputRounds`, so their bundles carry no signing code: without it a 2026-07-28 handler's ask fails with
 * `ERR_INPUT_ROUNDS_OFF` (older revisions ask through server→client requests and need nothing).
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
  async run(
    handler: ServerRequestHandler<never>,
    params: Record<string, unknown>,
    ctx: ServerRequestContext,
    dctx: DispatchContext,
  ): Promise<unknown> {
    const method = ctx.method;
    const responses = params.inputResponses;
    if (responses !== undefined && !isJsonObject(responses)) {
      throw invalidParamsError('inputResponses must be an object of answers by input request key', {
        inputResponses: responses,
      });
    }
    let answers: Record<string, unknown> = {};
    if (params.requestState !== undefined) {
      const principal = this.#principalOf(dctx.info);
      const state = await this.#codec.verify(params.requestState, { method, params, principal });
      answers = { ...state.r };
      if (responses !== undefined) {
        // Only the keys this token asked for; others are ignored, as the spec advises.
        for (const key of state.a) if (Object.hasOwn(responses, key)) answers[key] = responses[key];
      }
    } else if (responses !== undefined) {
      // Answers without a requestState (the client answered an input_required that carried none, or answers up
      // front): as trustworthy as any answer of this client, since the client is who answers. Each is still checked
      // against the shape of its result when the handler asks for its key; keys it never asks are ignored.
      answers = { ...responses };
    }
    return new Promise<unknown>((resolve, reject) => {
      let inputs: InputRequests | undefined;
      const keys: string[] = [];
      const askRound = () => {
        paramsDigest(params)
          .then((digest) =>
            this.#codec.sign({ m: method, d: digest, p: this.#principalOf(dctx.info), r: answers, a: keys }),
          )
          .then((requestState) => {
            ctx.abandon(new Error(`'${method}' needs input from the client; this run of the handler was set aside`));
            resolve({ resultType: 'input_required', inputRequests: inputs, requestState });
          }, reject);
      };
      ctx.askWith((ask) => {
        if (Object.hasOwn(answers, ask.key)) {
          try {
            return Promise.resolve(checkAnswer(ask.method, ask.key, answers[ask.key]));
          } catch (error) {
            return Promise.reject(error);
          }
        }
        if (inputs === undefined) {
          inputs = {};
          // Give the handler a macrotask to make the asks it makes concurrently (Promise.all), then answer with all.
          setTimeout(askRound, 0);
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
