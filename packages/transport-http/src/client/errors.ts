import { defineCodedError, type JsonRpcMessage, type JsonRpcRequest } from '@mcpkit/jsonrpc-core';
import type { HttpAnswer } from './http-exchange';

/** What went wrong on the HTTP side of a client transport. */
export type StreamableHttpErrorCode =
  /** The server answered with an HTTP status the transport cannot turn into a JSON-RPC message. */
  | 'ERR_HTTP_STATUS'
  /** The server no longer knows the session (HTTP 404 with `Mcp-Session-Id`): start a new session. */
  | 'ERR_SESSION_EXPIRED'
  /** A 2xx response whose content type is neither `application/json` nor `text/event-stream`. */
  | 'ERR_CONTENT_TYPE'
  /** A response body that is not JSON-RPC. */
  | 'ERR_INVALID_BODY'
  /** A response stream ended before the response of its request, and could not be resumed. */
  | 'ERR_STREAM_ENDED'
  /**
   * A stream resumed with `Last-Event-ID` has a gap: the server no longer had some events sent after that id (its event
   * store evicted them, usually because this client read too slowly or stayed away too long). Messages were lost.
   */
  | 'ERR_EVENTS_LOST'
  /** The legacy HTTP+SSE stream did not announce a usable `endpoint`. */
  | 'ERR_SSE_ENDPOINT'
  /** `fetch` itself failed (network error, DNS, refused connection). */
  | 'ERR_NETWORK'
  /** The transport is closed (or was never started). */
  | 'ERR_TRANSPORT_CLOSED';

/** Debug data of a {@link StreamableHttpError}. */
export interface StreamableHttpErrorData {
  /** HTTP status of the response, when there was one. */
  status?: number;
  /** The request URL. */
  url?: string;
  /** The HTTP method. */
  httpMethod?: string;
  /** The JSON-RPC method of the message being sent, when there was one. */
  method?: string;
  /** The first bytes of the response body, for debugging. */
  body?: string;
  /** The session the transport held, when relevant. */
  sessionId?: string;
  /** 401/403: the response's `WWW-Authenticate` header, as sent. */
  challenge?: string;
  /** 401/403: the challenge's `error` (`insufficient_scope`, `invalid_token`, …). */
  authError?: string;
  /** 401/403: the scopes the challenge says the request needs (its `scope`, split). */
  requiredScopes?: string[];
}

/**
 * A failure of an HTTP client transport: a code to branch on, a message a person can act on, and the data to debug
 * (status, URL, body excerpt). `StreamableHttpError.is()` recognises instances from another copy of this package.
 *
 * @example
 * ```ts
 * try {
 *   await client.callTool({ name: 'x' });
 * } catch (error) {
 *   if (StreamableHttpError.is(error) && error.code === 'ERR_SESSION_EXPIRED') await reconnect();
 * }
 * ```
 */
export class StreamableHttpError extends defineCodedError<StreamableHttpErrorCode, StreamableHttpErrorData>(
  'StreamableHttpError',
  '@mcpkit/transport-http/StreamableHttpError',
) {}

const MAX_BODY_EXCERPT = 500;

/** Names a message in an error text: `'tools/call' (id 3)`, `'notifications/initialized'`, `the response to id 3`. */
export function describeMessage(message: JsonRpcMessage): string {
  if ('method' in message)
    return 'id' in message ? `'${message.method}' (id ${String(message.id)})` : `'${message.method}'`;
  return `the response to id ${String(message.id)}`;
}

/** The start of a response body, for error data. */
export function excerpt(text: string): string {
  return text.length > MAX_BODY_EXCERPT ? `${text.slice(0, MAX_BODY_EXCERPT)}…` : text;
}

/** The auth-params of a `WWW-Authenticate` header (`error`, `scope`, …), by lower-cased name; the first value wins. */
export function challengeParams(header: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const match of header.matchAll(/([A-Za-z][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    const name = match[1]!.toLowerCase();
    params[name] ??= match[2] === undefined ? match[3]! : match[2].replace(/\\(.)/g, '$1');
  }
  return params;
}

/**
 * The error for an HTTP status the transport cannot turn into a JSON-RPC message. A 401/403 with `WWW-Authenticate`
 * says what the server wants: the `error`, the scopes it needs (a per-tool 403 `insufficient_scope` names them), and
 * the challenge itself, in the message and in `data`.
 */
export function httpStatusError(
  request: string,
  response: HttpAnswer,
  text: string,
  data: StreamableHttpErrorData,
): StreamableHttpError {
  const status = response.status;
  const challenge = status === 401 || status === 403 ? (response.header('www-authenticate') ?? undefined) : undefined;
  let message = `${request} with HTTP ${status}`;
  const details: StreamableHttpErrorData = { ...data, status, body: excerpt(text) };
  if (challenge !== undefined) {
    const params = challengeParams(challenge);
    const scopes = params.scope?.split(' ').filter((scope) => scope !== '');
    details.challenge = challenge;
    details.authError = params.error;
    details.requiredScopes = scopes;
    const needs =
      scopes === undefined || scopes.length === 0
        ? ''
        : `; it needs the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(' ')}`;
    message += ` (${params.error ?? 'unauthorized'}${needs}). WWW-Authenticate: ${challenge}`;
  }
  return new StreamableHttpError('ERR_HTTP_STATUS', message, details);
}

/**
 * The response stream of `request` ended (`why`) before its response and will not be resumed; `unresumable` says why
 * not, when the era could have resumed it.
 */
export function streamEndedError(
  url: URL,
  request: JsonRpcRequest,
  why: string,
  failure: unknown,
  unresumable = '',
): StreamableHttpError {
  return new StreamableHttpError(
    'ERR_STREAM_ENDED',
    `The response stream of ${describeMessage(request)} ended before its response (${why})${unresumable}`,
    { url: url.href, method: request.method },
    { cause: failure },
  );
}

/** `error` as an `Error` (wrapping a thrown non-Error value). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Reads at most a short excerpt of a response body for error data; never throws. */
export async function bodyExcerpt(response: HttpAnswer): Promise<string> {
  try {
    const text = await response.text();
    return text.length > MAX_BODY_EXCERPT ? `${text.slice(0, MAX_BODY_EXCERPT)}…` : text;
  } catch {
    return '';
  }
}
