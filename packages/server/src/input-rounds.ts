import { isJsonObject, type MessageInfo } from '@mcpkit/jsonrpc-core';
import { invalidParamsError } from '@mcpkit/protocol';
import type { DispatchContext, ServerRequestContext } from './context';
import type { ServerRequestHandler } from './handlers';
import { paramsDigest, type RequestStateCodec } from './request-state';

/**
 * Multi Round-Trip Requests (2026-07-28), server side: runs a handler that may ask the client for input. Answers from
 * the verified `requestState` and `inputResponses` replay earlier asks (answers without a `requestState` are taken as
 * they are: the client's own answers, checked like any other); the first unanswered ask turns the result into
 * `input_required` with a fresh `requestState` bound to method, params digest and principal.
 */
export class InputRounds {
  readonly #codec: RequestStateCodec;
  readonly #principalOf: (info: MessageInfo) => string | undefined;

  constructor(codec: RequestStateCodec, principalOf: (info: MessageInfo) => string | undefined) {
    this.#codec = codec;
    this.#principalOf = principalOf;
  }

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
      ctx.setAnswers(answers);
    } else if (responses !== undefined) {
      // Answers without a requestState (the client answered an input_required that carried none, or answers up
      // front): as trustworthy as any answer of this client, since the client is who answers. Each is still checked
      // against the shape of its result when the handler asks for its key; keys it never asks are ignored.
      answers = { ...responses };
      ctx.setAnswers(answers);
    }
    return new Promise<unknown>((resolve, reject) => {
      ctx.onInputNeeded((pending) => {
        paramsDigest(params)
          .then((digest) =>
            this.#codec.sign({ m: method, d: digest, p: this.#principalOf(dctx.info), r: answers, a: pending.keys }),
          )
          .then((requestState) => {
            ctx.abandon(new Error(`'${method}' needs input from the client; this run of the handler was set aside`));
            resolve({ resultType: 'input_required', inputRequests: pending.inputs, requestState });
          }, reject);
      });
      try {
        Promise.resolve(handler(params as never, ctx)).then(resolve, reject);
      } catch (error) {
        reject(error);
      }
    });
  }
}
