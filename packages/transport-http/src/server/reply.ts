import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import { withRawBody } from './raw-body';
import type { SseWriter } from './sse';

// What the handler core answers before it is a web `Response`. `handle()` turns it into one; the node adapter writes
// it to the socket as is (status, a plain header record, and a string body or an SSE writer), so the answers of the
// hot path never go through undici's Response, Headers and body stream on Node.

/** @internal An answer not yet built as a `Response`. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The whole body as text (JSON, or an SSE body known at once); `undefined` with `sse` or for no body. */
  readonly body: string | undefined;
  /** A streaming SSE body. */
  readonly sse: SseWriter | undefined;
}

/** @internal What the handler core produces: a ready `Response` (rare paths, hooks) or a {@link Reply}. */
export type Answer = Response | Reply;

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

/** A reply with a text body, no body, or an SSE stream. */
export function reply(
  status: number,
  headers?: Readonly<Record<string, string>>,
  body?: string,
  sse?: SseWriter,
): Reply {
  return { status, headers, body, sse };
}

/** A JSON reply. */
export function jsonReply(status: number, value: unknown, headers?: Readonly<Record<string, string>>): Reply {
  return {
    status,
    headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(value),
    sse: undefined,
  };
}

/** The web `Response` for an answer (string bodies keep their text for adapters, see `withRawBody`). */
export function toResponse(answer: Answer): Response {
  if (answer instanceof Response) return answer;
  const init =
    answer.headers === undefined ? { status: answer.status } : { status: answer.status, headers: answer.headers };
  if (answer.sse !== undefined) return new Response(answer.sse.stream, init);
  if (answer.body === undefined) return new Response(null, init);
  return withRawBody(new Response(answer.body, init), answer.body);
}

const ANSWER: unique symbol = Symbol.for('@mcpkit/transport-http.answer') as never;

/**
 * @internal What the handler's own `handle` function carries under the registry symbol: the same answer without the
 * `Response`. It hangs on the function, not on the handler, so a wrapper that replaces `handle` (CORS, bearer auth)
 * hides it and adapters fall back to calling `handle`.
 */
export interface AnswerSource {
  [ANSWER](handler: unknown, request: Request, extra?: { auth?: AuthInfo }): Answer | Promise<Answer>;
}

export { ANSWER };

/** @internal The fast answer of `handler.handle`, when `handle` is the handler's own. */
export function answerOf(handle: unknown): AnswerSource[typeof ANSWER] | undefined {
  const answer = typeof handle === 'function' ? (handle as Partial<AnswerSource>)[ANSWER] : undefined;
  return typeof answer === 'function' ? answer : undefined;
}
