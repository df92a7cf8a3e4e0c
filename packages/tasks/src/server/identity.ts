import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import type { Era, ServerSession } from '@mcpkit/server';
import { TASK_ERAS } from './eras/task-eras';

/** What decides who a request is from, for binding tasks to their creator. */
export interface Requestor {
  /** The verified identity, when the transport or an auth middleware established one. */
  auth: AuthInfo | undefined;
  /** The connection (legacy sessions, stdio, WebSocket); `undefined` on stateless HTTP. */
  session: ServerSession | undefined;
  era: Era;
}

/**
 * Who owns a task: a string compared for equality, or `undefined` for "nobody in particular" (then the task id, 128
 * random bits, is the only key to it — the spec's fallback when there is no authorization context).
 */
export type IdentityOf = (requestor: Requestor) => string | undefined;

const sessionIds = new WeakMap<ServerSession, string>();

function sessionId(session: ServerSession): string {
  let id = sessionIds.get(session);
  if (id === undefined) {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
    sessionIds.set(session, id);
  }
  return id;
}

/**
 * The default owner of a task: the authenticated principal (client id and subject) when there is one (the token itself
 * is never stored); else, in the
 * 2025 era, the session (another session, even of the same client, gets "not found"); else nobody (2026-07-28 without
 * auth is stateless: the unguessable id is the capability).
 */
export const defaultIdentity: IdentityOf = ({ auth, session, era }) => {
  // A token that names neither client nor subject cannot tell two callers apart: fall through to the session.
  if (auth !== undefined && (auth.clientId !== undefined || auth.subject !== undefined)) {
    return `auth:${auth.clientId ?? ''}\u0000${auth.subject ?? ''}`;
  }
  if (session !== undefined && TASK_ERAS[era].sessionOwnsTasks) return `session:${sessionId(session)}`;
  return undefined;
};
