import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { formatBearerChallenge } from './www-authenticate';

/**
 * JSON-RPC error codes of requests refused by bearer auth's per-request check (`bearer.middleware`). They are the HTTP
 * status a Streamable HTTP client gets (the HTTP transport answers with that status and `data.wwwAuthenticate` while
 * it still can; a WebSocket or stdio client gets the JSON-RPC error):
 * MCP reserves -32768…-32000 for JSON-RPC and the spec, so an application's errors live outside that range.
 */
export const BearerErrorCode = {
  /** No token although the call needs one, or the connection's token expired: connect again with a (fresh) token. */
  Unauthorized: 401,
  /** The connection's token lacks scopes this call needs (step-up): get them, then connect again with the new token. */
  InsufficientScope: 403,
} as const;

/** `error.data` of a {@link BearerErrorCode} error: what a client needs to step up, in the HTTP challenge's terms. */
export interface BearerErrorData {
  /** The OAuth error: `unauthorized` (no token), `invalid_token` (expired), `insufficient_scope`. */
  error: 'unauthorized' | 'invalid_token' | 'insufficient_scope';
  /** The scopes this call needs (ask for these when stepping up): `requiredScopes` plus the tool's. */
  scopes: string[];
  /** The scopes of `scopes` the token lacks (insufficient_scope only). */
  missingScopes?: string[];
  /** The tool called, when the refusal is about a tool. */
  tool?: string;
  /** The prompt asked for, when the refusal is about a prompt. */
  prompt?: string;
  /** The resource URI, when the refusal is about a resource. */
  resource?: string;
  /** Where the protected resource metadata is (RFC 9728). */
  resourceMetadata: string;
  /**
   * The `WWW-Authenticate` value a Streamable HTTP server would have answered with: a client can hand it to the same
   * code that handles an HTTP 401/403 challenge.
   */
  wwwAuthenticate: string;
  /** The HTTP status an HTTP transport answers with while it still can (the same as the code). */
  httpStatus: 401 | 403;
  /** The HTTP headers it sends with it: the challenge. */
  httpHeaders: { 'www-authenticate': string };
}

/** Builds the JSON-RPC error for a refused request (thrown by the bearer middleware). */
export function bearerJsonRpcError(
  code: (typeof BearerErrorCode)[keyof typeof BearerErrorCode],
  message: string,
  data: Omit<BearerErrorData, 'wwwAuthenticate' | 'httpStatus' | 'httpHeaders'>,
): JsonRpcError {
  const challenge = formatBearerChallenge({
    error: data.error === 'unauthorized' ? undefined : data.error,
    errorDescription: data.error === 'unauthorized' ? undefined : message,
    resourceMetadata: data.resourceMetadata,
    scope: data.scopes,
  });
  const full: BearerErrorData = {
    ...data,
    wwwAuthenticate: challenge,
    httpStatus: code,
    httpHeaders: { 'www-authenticate': challenge },
  };
  return new JsonRpcError(code, message, full);
}
