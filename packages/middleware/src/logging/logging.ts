import type { Middleware } from '@mcpkit/jsonrpc-core';
import {
  type AnyContext,
  directionOf,
  errorCodeOf,
  isClientContext,
  isToolError,
  principalOf,
  requestIdOf,
  serverSessionIdOf,
  targetOf,
} from '../shared/request-facts';
import { consoleJsonLogger, type Logger } from './logger';
import { createRedactor } from './redact';

/** One request (or notification) as logged: what it was, who sent it, how long it took and how it ended. */
export interface RequestRecord {
  /** Which side logged it. */
  side: 'server' | 'client';
  /** `inbound`: received by this side; `outbound`: sent by it (client requests). */
  direction: 'inbound' | 'outbound';
  kind: 'request' | 'notification';
  method: string;
  tool?: string;
  prompt?: string;
  resource?: string;
  /** The JSON-RPC id (server side; a client's server→client requests). */
  requestId?: string | number;
  /** `input_required` round of a client call (0 for the first request). */
  round?: number;
  era?: string;
  protocolVersion?: string;
  /** The HTTP session id, when there is one. */
  session?: string;
  /** Who made the request (`subject@clientId` of the verified token); never the token itself. */
  principal?: string;
  durationMs: number;
  /** `ok`, `tool_error` (a `tools/call` answered with `isError: true`), or `error`. */
  outcome: 'ok' | 'tool_error' | 'error';
  /** The error code: a JSON-RPC error's number, a local error's string code (`ERR_REQUEST_TIMEOUT`). */
  errorCode?: number | string;
  errorMessage?: string;
  /** The params, redacted (only with `params: true`). */
  params?: unknown;
}

/** Options of {@link logging}. */
export interface LoggingOptions {
  /** Where records go. Default {@link consoleJsonLogger} (JSON lines on stderr). */
  logger?: Logger;
  /** The message each record is logged with. Default `'mcp request'` (`'mcp notification'` for notifications). */
  message?: string;
  /** Also log notifications. Default `false`: one record per request. */
  notifications?: boolean;
  /** Include the request's params, redacted. Default `false`. */
  params?: boolean;
  /**
   * More field names to redact (case-insensitive, at any depth), beside the defaults: `authorization`, `cookie`,
   * `token`, `access_token`, `refresh_token`, `client_secret`, `password`, `secret`, `api_key`, `requestState`, ….
   */
  redact?: readonly string[];
  /** The session id, where the context does not know it (a client: `() => transport.sessionId`). */
  sessionId?: (ctx: AnyContext) => string | undefined;
  /** Who made the request. Default: the verified token's subject and client (server side). */
  principal?: (ctx: AnyContext) => string | undefined;
  /** Adds fields of your own to every record (a tenant, a deployment). */
  fields?: (ctx: AnyContext) => Record<string, unknown> | undefined;
}

/**
 * Logs one structured record per request, on either side: `server.use(logging())` and `client.use(logging())`. The
 * record names the method, its tool, prompt or resource, the duration, the outcome and error code, the era and
 * version, the session and the principal (see {@link RequestRecord}); it is logged at `info` when the request
 * succeeded, `warn` when a tool reported an error, `error` when the request failed. Secrets never reach the logger:
 * tokens are not part of a record, and params (opt-in) are redacted.
 *
 * @example
 * server.use(logging({ params: true, redact: ['ssn'] }));
 * // {"level":"info","time":"…","msg":"mcp request","side":"server","direction":"inbound","kind":"request",
 * //  "method":"tools/call","tool":"lookup","requestId":2,"era":"legacy","protocolVersion":"2025-11-25",
 * //  "durationMs":3.2,"outcome":"ok","params":{"name":"lookup","arguments":{"ssn":"[REDACTED]"}}}
 */
export function logging(options: LoggingOptions = {}): Middleware<AnyContext, unknown> {
  const logger = options.logger ?? consoleJsonLogger();
  const requestMessage = options.message ?? 'mcp request';
  const notificationMessage = options.message ?? 'mcp notification';
  const withNotifications = options.notifications === true;
  const redact = options.params === true ? createRedactor(options.redact) : undefined;
  const { sessionId, principal, fields } = options;

  const write = (ctx: AnyContext, started: number, outcome: RequestRecord['outcome'], error: unknown) => {
    const client = isClientContext(ctx);
    const record: RequestRecord = {
      side: client ? 'client' : 'server',
      direction: directionOf(ctx),
      kind: ctx.kind,
      method: ctx.method,
      ...targetOf(ctx.method, ctx.params),
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      outcome,
    };
    const id = requestIdOf(ctx);
    if (id !== undefined) record.requestId = id;
    if (client && ctx.direction === 'outbound') record.round = ctx.round;
    if (ctx.era !== undefined) record.era = ctx.era;
    if (ctx.protocolVersion !== undefined) record.protocolVersion = ctx.protocolVersion;
    const session = sessionId?.(ctx) ?? (client ? undefined : serverSessionIdOf(ctx));
    if (session !== undefined) record.session = session;
    const who = principal?.(ctx) ?? (client ? undefined : principalOf(ctx.auth));
    if (who !== undefined) record.principal = who;
    if (error !== undefined) {
      const code = errorCodeOf(error);
      if (code !== undefined) record.errorCode = code;
      record.errorMessage = error instanceof Error ? error.message : String(error);
    }
    if (redact !== undefined && ctx.params !== undefined) record.params = redact(ctx.params);
    const extra = fields?.(ctx);
    const out = extra === undefined ? record : { ...extra, ...record };
    const message = ctx.kind === 'request' ? requestMessage : notificationMessage;
    try {
      if (outcome === 'ok') logger.info(out, message);
      else if (outcome === 'tool_error') logger.warn(out, message);
      else logger.error(out, message);
    } catch {
      // A failing logger must not fail the request it describes.
    }
  };

  return async (ctx, next) => {
    if (ctx.kind === 'notification' && !withNotifications) return next();
    const started = performance.now();
    let result: unknown;
    try {
      result = await next();
    } catch (error) {
      write(ctx, started, 'error', error);
      throw error;
    }
    write(ctx, started, ctx.method === 'tools/call' && isToolError(result) ? 'tool_error' : 'ok', undefined);
    return result;
  };
}
