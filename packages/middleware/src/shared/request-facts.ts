import type { ClientContext } from '@mcpkit/client';
import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import type { ServerContext } from '@mcpkit/server';

/**
 * What a built-in that works on both sides sees: a server middleware's context (always inbound) or a client
 * middleware's (outbound requests, inbound server→client requests and notifications). One function serves
 * `server.use()` and `client.use()` alike.
 */
export type AnyContext = ServerContext | ClientContext;

/** What a request is about: the tool, prompt or resource it names. */
export interface RequestTarget {
  tool?: string;
  prompt?: string;
  resource?: string;
}

const NO_TARGET: RequestTarget = Object.freeze({});

/** Whether a context is a client middleware's (client contexts carry a direction; server ones are all inbound). */
export function isClientContext(ctx: AnyContext): ctx is ClientContext {
  return 'direction' in ctx;
}

/** `inbound` for what this side received (every server context; a client's server→client messages). */
export function directionOf(ctx: AnyContext): 'inbound' | 'outbound' {
  return isClientContext(ctx) ? ctx.direction : 'inbound';
}

function stringField(params: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = params?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** The tool, prompt or resource a request names (`tools/call`, `prompts/get`, `resources/read|subscribe|unsubscribe`). */
export function targetOf(method: string, params: Record<string, unknown> | undefined): RequestTarget {
  switch (method) {
    case 'tools/call': {
      const tool = stringField(params, 'name');
      return tool === undefined ? NO_TARGET : { tool };
    }
    case 'prompts/get': {
      const prompt = stringField(params, 'name');
      return prompt === undefined ? NO_TARGET : { prompt };
    }
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
    case 'notifications/resources/updated': {
      const resource = stringField(params, 'uri');
      return resource === undefined ? NO_TARGET : { resource };
    }
    default:
      return NO_TARGET;
  }
}

/** The request id a context knows (server contexts and a client's inbound requests; not a client's outbound ones). */
export function requestIdOf(ctx: AnyContext): string | number | undefined {
  if (ctx.kind !== 'request') return undefined;
  const id = (ctx as { requestId?: string | number }).requestId;
  return id ?? undefined;
}

/** The session id a server context's transport has (HTTP sessions); `undefined` elsewhere. */
export function serverSessionIdOf(ctx: ServerContext): string | undefined {
  return ctx.session?.transport?.sessionId;
}

/** Who an identity is, for logs and rate limits: the subject and client, never the token. */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  if (auth === undefined) return undefined;
  if (auth.subject !== undefined && auth.clientId !== undefined) return `${auth.subject}@${auth.clientId}`;
  return auth.subject ?? auth.clientId;
}

/** The error code to report: a JSON-RPC error's number, a coded local error's string code. */
export function errorCodeOf(error: unknown): number | string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' || typeof code === 'string' ? code : undefined;
}

/** Whether a result is a tool's own failure (`CallToolResult.isError`): the call worked, the tool did not. */
export function isToolError(result: unknown): boolean {
  return result !== null && typeof result === 'object' && (result as { isError?: unknown }).isError === true;
}
