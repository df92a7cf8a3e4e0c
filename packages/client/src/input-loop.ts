import { type AbortSource, isJsonObject, type JsonObject } from '@mcpkit/jsonrpc-core';
import type { ClientCapabilities, InputRequiredResult } from '@mcpkit/protocol';
import type { SessionState } from './eras/client-era';
import { McpClientError } from './errors';
import { fulfilInputRequests } from './input-requests';
import type { InputHandlers } from './options';

/** One call's view of the `input_required` loop. */
export interface InputRounds {
  readonly handlers: InputHandlers;
  readonly capabilities: ClientCapabilities;
  /** Rounds allowed before `ERR_INPUT_ROUNDS_EXCEEDED` (`maxInputRounds`). */
  readonly maxRounds: number;
  /** Read every round: a -32022 retry may switch its version. */
  readonly session: SessionState;
  /** The method may answer `input_required` (tools/call, prompts/get, resources/read). */
  readonly mayNeedInput: boolean;
  /** The call's signal; aborting it aborts the handlers. */
  readonly signal: AbortSource | undefined;
  /** `resultType`s an extension owns (e.g. `task`): final answers, handed back as they are. */
  readonly extensionResultTypes: ReadonlySet<string>;
}

/**
 * Drives a request the server answered `input_required` (see {@link isInputRequired}) to a complete result: fulfils
 * every input request and sends a retry (`send` draws a new id) with the same params, `inputResponses`, and
 * `requestState` echoed byte for byte, until the answer is complete or `maxRounds` is exceeded.
 */
export async function completeWithInput(
  method: string,
  params: JsonObject | undefined,
  interim: JsonObject,
  send: (params: JsonObject) => Promise<JsonObject>,
  call: InputRounds,
): Promise<JsonObject> {
  let result = interim;
  let rounds = 0;
  do {
    rounds++;
    if (rounds > call.maxRounds) {
      throw new McpClientError(
        'ERR_INPUT_ROUNDS_EXCEEDED',
        `${method}: the server still asked for input after ${call.maxRounds} rounds (maxInputRounds)`,
        { method, rounds: call.maxRounds },
      );
    }
    const { inputRequests, requestState } = result as unknown as InputRequiredResult;
    const retry: JsonObject = { ...params };
    delete retry.inputResponses;
    delete retry.requestState;
    if (inputRequests !== undefined) {
      retry.inputResponses = await fulfilInputRequests(
        inputRequests,
        call.handlers,
        call.capabilities,
        call.session.version,
        method,
        call.signal,
      );
    }
    // Echoed verbatim (never parsed), and only when the server sent one.
    if (requestState !== undefined) retry.requestState = requestState;
    result = await send(retry);
  } while (
    !isOwnedByExtension(result, call.extensionResultTypes) &&
    isInputRequired(method, result, call.session, call.mayNeedInput)
  );
  return result;
}

/** Whether `result` carries a `resultType` an extension owns (a task handle after the last input round, say). */
export function isOwnedByExtension(result: JsonObject, owned: ReadonlySet<string>): boolean {
  const type = result.resultType;
  return typeof type === 'string' && owned.has(type);
}

/**
 * Classifies a result by `resultType`: absent or `complete` is final; `input_required` only where the era and method
 * allow it; anything else is invalid. Runs on every result (tools/call included), so it checks no more than that and
 * allocates nothing.
 */
export function isInputRequired(
  method: string,
  result: JsonObject,
  session: SessionState,
  mayNeedInput: boolean,
): boolean {
  const type = result.resultType;
  if (type === undefined || type === 'complete') return false;
  if (type !== 'input_required') {
    throw new McpClientError(
      'ERR_INVALID_RESULT',
      `${method} answered with an unknown resultType ${JSON.stringify(type)}`,
      { method, resultType: type },
    );
  }
  if (!session.era.inputInResults || !mayNeedInput) {
    throw new McpClientError(
      'ERR_INVALID_RESULT',
      `${method} answered input_required, which only tools/call, prompts/get and resources/read may do in 2026-07-28`,
      { method, resultType: type, version: session.version },
    );
  }
  const { inputRequests, requestState } = result;
  if (
    (inputRequests === undefined || isJsonObject(inputRequests)) &&
    (requestState === undefined || typeof requestState === 'string') &&
    (inputRequests !== undefined || requestState !== undefined)
  ) {
    return true;
  }
  throw new McpClientError(
    'ERR_INVALID_RESULT',
    `${method}: an input_required result needs inputRequests (an object) or requestState (a string)`,
    { method, result },
  );
}
