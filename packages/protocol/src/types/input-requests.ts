import type { RequestParams, Result } from './common.js';
import type { ElicitRequest, ElicitResult } from './elicitation.js';
import type { ListRootsRequest, ListRootsResult } from './roots.js';
import type { CreateMessageRequest, CreateMessageResult } from './sampling.js';

/**
 * A request the server needs the client to fulfil before it can finish (`InputRequest`, 2026-07-28, SEP-2322):
 * `{method, params}` only, no `jsonrpc` and no `id`. Replaces server→client JSON-RPC requests of older revisions.
 */
export type InputRequest = CreateMessageRequest | ListRootsRequest | ElicitRequest;

/** Server-assigned keys → input requests (`InputRequests`, 2026-07-28). Keys are unique within one request. */
export interface InputRequests {
  [key: string]: InputRequest;
}

/** The client's answer to one {@link InputRequest} (`InputResponse`, 2026-07-28). Carries no `resultType`. */
export type InputResponse = CreateMessageResult | ListRootsResult | ElicitResult;

/** Keys of the {@link InputRequests} → the client's answers (`InputResponses`, 2026-07-28). */
export interface InputResponses {
  [key: string]: InputResponse;
}

/**
 * An interim result: the server needs input before it can complete the request (`InputRequiredResult`,
 * 2026-07-28). Only `tools/call`, `prompts/get` and `resources/read` may return it. At least one of `inputRequests`
 * and `requestState` is present. Never cacheable.
 *
 * @example
 * ```ts
 * const interim: InputRequiredResult = {
 *   resultType: 'input_required',
 *   inputRequests: {
 *     login: {
 *       method: 'elicitation/create',
 *       params: {
 *         message: 'GitHub username?',
 *         requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
 *       },
 *     },
 *   },
 *   requestState: 'opaque-signed-state',
 * };
 * ```
 */
export interface InputRequiredResult extends Result {
  resultType: 'input_required';
  inputRequests?: InputRequests;
  /** Opaque server state: the client echoes it byte-exact on the retry and never parses it. */
  requestState?: string;
}

/**
 * Retry fields of `tools/call`, `prompts/get` and `resources/read` (`InputResponseRequestParams`, 2026-07-28). A
 * retry is a new JSON-RPC request (new id) carrying the answers and the echoed `requestState`.
 */
export interface InputResponseRequestParams extends RequestParams {
  /** 2026-07-28: answers to the previous result's `inputRequests`. */
  inputResponses?: InputResponses;
  /** 2026-07-28: the previous result's `requestState`, verbatim; omitted if there was none. */
  requestState?: string;
}
