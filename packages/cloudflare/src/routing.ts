import type { AuthInfo } from '@mcpkit/jsonrpc-core';

// What the Worker and the session object agree on: the session id the client sees names the Durable Object that holds
// the session, and the identity the Worker authenticated travels to the object in a header of its own.

/** The header that carries the Worker's `AuthInfo` to the session object. The Worker drops any copy a client sent. */
export const AUTH_HEADER = 'x-mcpkit-worker-auth';

const OBJECT_ID = /^[0-9a-f]{64}$/;

/**
 * The `Mcp-Session-Id` a client sees: the Durable Object's id, a dot, and the id the object's handler minted (the
 * unguessable part: a client that knows an object id still needs the session id to reach the session).
 */
export function publicSessionId(objectId: string, sessionId: string): string {
  return `${objectId}.${sessionId}`;
}

/** Splits a client's `Mcp-Session-Id`; `undefined` when it cannot be one this Worker handed out. */
export function splitSessionId(header: string): { objectId: string; sessionId: string } | undefined {
  const dot = header.indexOf('.');
  if (dot !== 64) return undefined;
  const objectId = header.slice(0, dot);
  const sessionId = header.slice(dot + 1);
  if (!OBJECT_ID.test(objectId) || sessionId.length === 0) return undefined;
  return { objectId, sessionId };
}

/** Reads the identity the Worker attached (see {@link AUTH_HEADER}). */
export function authFromHeader(request: Request): AuthInfo | undefined {
  const value = request.headers.get(AUTH_HEADER);
  if (value === null) return undefined;
  return JSON.parse(value) as AuthInfo;
}
