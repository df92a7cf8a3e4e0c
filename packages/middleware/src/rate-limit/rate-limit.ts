import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import type { ServerContext, ServerMiddleware } from '@mcpkit/server';
import { MiddlewareErrorCode } from '../shared/errors';
import { principalOf, serverSessionIdOf, targetOf } from '../shared/request-facts';
import { type BucketSpec, InMemoryRateLimitStore, type RateLimitStore } from './store';

/** Who a bucket belongs to: a built-in key or your own function (`undefined`: the shared anonymous bucket). */
export type RateLimitKey =
  | 'principal'
  | 'session'
  | 'address'
  | ((ctx: ServerContext) => string | undefined | Promise<string | undefined>);

/** A limit: a token bucket of `capacity` tokens refilled at `refillPerSecond`; one token per request. */
export type RateLimit = BucketSpec;

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /**
   * The limit of each caller over every request. Omit it to limit only the tools in `tools`.
   *
   * @example { capacity: 20, refillPerSecond: 5 } // bursts of 20, 5 per second sustained
   */
  limit?: RateLimit;
  /** Limits per tool (by name), each caller having its own bucket per tool, on top of `limit`. */
  tools?: Record<string, RateLimit>;
  /**
   * Who a caller is. Default `'principal'` (the verified token's subject and client), falling back to the session,
   * then the address. `'address'` reads `X-Forwarded-For` / `X-Real-IP`, which only a trusted proxy in front makes
   * meaningful. Callers with no key share one anonymous bucket.
   */
  by?: RateLimitKey;
  /** Where buckets live. Default: a bounded {@link InMemoryRateLimitStore}. */
  store?: RateLimitStore;
  /** Methods not counted. Default: `initialize`, `ping` and `server/discover`, so a client can always connect. */
  exempt?: readonly string[];
  /** Prefix of every bucket key in the store (several limiters, or apps, sharing one store). Default `'mcp'`. */
  keyPrefix?: string;
  /** The clock, in ms since the epoch (tests). Default `Date.now`. */
  now?: () => number;
}

/** `error.data` of a rate-limited request ({@link MiddlewareErrorCode.RateLimited}, 429). */
export interface RateLimitErrorData {
  /** How long to wait before trying again, in ms. */
  retryAfterMs: number;
  /** Which limit refused: the caller's over all requests, or a tool's. */
  limit: 'caller' | 'tool';
  /** The tool, when a tool's limit refused. */
  tool?: string;
  capacity: number;
  refillPerSecond: number;
  /** For the HTTP transport: the status to answer a request refused before its handler started. */
  httpStatus: 429;
  /** For the HTTP transport: `Retry-After` in whole seconds. */
  httpHeaders: { 'retry-after': string };
}

const DEFAULT_EXEMPT = ['initialize', 'ping', 'server/discover'];

function firstForwarded(ctx: ServerContext): string | undefined {
  const headers = ctx.info.request?.headers;
  if (headers === undefined) return undefined;
  const forwarded = headers['x-forwarded-for'];
  if (forwarded !== undefined) {
    const first = forwarded.split(',')[0]?.trim();
    if (first) return first;
  }
  return headers['x-real-ip'] || undefined;
}

function keyFunction(
  by: RateLimitKey | undefined,
): (ctx: ServerContext) => string | undefined | Promise<string | undefined> {
  if (typeof by === 'function') return by;
  switch (by) {
    case 'session':
      return (ctx) => {
        const id = serverSessionIdOf(ctx);
        return id === undefined ? undefined : `session:${id}`;
      };
    case 'address':
      return (ctx) => {
        const address = firstForwarded(ctx);
        return address === undefined ? undefined : `address:${address}`;
      };
    default:
      return (ctx) => {
        const principal = principalOf(ctx.auth);
        if (principal !== undefined) return `principal:${principal}`;
        const session = serverSessionIdOf(ctx);
        if (session !== undefined) return `session:${session}`;
        const address = firstForwarded(ctx);
        return address === undefined ? undefined : `address:${address}`;
      };
  }
}

function checkLimit(limit: RateLimit, what: string): void {
  if (!(limit.capacity >= 1) || !(limit.refillPerSecond >= 0) || !Number.isFinite(limit.capacity)) {
    throw new RangeError(
      `rateLimit: ${what} needs capacity >= 1 and refillPerSecond >= 0, got ${JSON.stringify(limit)}`,
    );
  }
}

function refusal(retryAfterMs: number, limit: RateLimit, tool: string | undefined): JsonRpcError {
  const wait = Number.isFinite(retryAfterMs) ? retryAfterMs : 3_600_000;
  const seconds = Math.max(1, Math.ceil(wait / 1000));
  const what = tool === undefined ? 'Rate limit exceeded' : `Rate limit exceeded for tool "${tool}"`;
  const data: RateLimitErrorData = {
    retryAfterMs: wait,
    limit: tool === undefined ? 'caller' : 'tool',
    capacity: limit.capacity,
    refillPerSecond: limit.refillPerSecond,
    httpStatus: 429,
    httpHeaders: { 'retry-after': String(seconds) },
  };
  if (tool !== undefined) data.tool = tool;
  return new JsonRpcError(
    MiddlewareErrorCode.RateLimited,
    `${what}: ${limit.capacity} requests, ${limit.refillPerSecond} more per second; retry in ${seconds} s`,
    data,
  );
}

/**
 * Rate limiting with token buckets, per caller (principal, session or address) over every request and per caller
 * per tool. Over a limit the request is refused before its handler runs with a JSON-RPC error, code 429
 * ({@link MiddlewareErrorCode.RateLimited}), whose `data` ({@link RateLimitErrorData}) says when to retry
 * (`retryAfterMs`) and carries `httpStatus: 429` and a `Retry-After` header for the HTTP transport. The retries
 * middleware of `@mcpkit/middleware/client` honours `retryAfterMs`. Notifications are never limited.
 *
 * @example
 * server.use(rateLimit({
 *   limit: { capacity: 20, refillPerSecond: 5 },
 *   tools: { search: { capacity: 3, refillPerSecond: 0.5 } },
 * }));
 */
export function rateLimit(options: RateLimitOptions): ServerMiddleware {
  const { limit, tools } = options;
  if (limit === undefined && (tools === undefined || Object.keys(tools).length === 0)) {
    throw new TypeError('rateLimit: give `limit` (every request), `tools` (per tool), or both');
  }
  if (limit !== undefined) checkLimit(limit, 'limit');
  const toolLimits = new Map<string, RateLimit>();
  for (const [name, toolLimit] of Object.entries(tools ?? {})) {
    checkLimit(toolLimit, `tools["${name}"]`);
    toolLimits.set(name, toolLimit);
  }
  const store = options.store ?? new InMemoryRateLimitStore();
  const keyOf = keyFunction(options.by);
  const exempt = new Set(options.exempt ?? DEFAULT_EXEMPT);
  const prefix = options.keyPrefix ?? 'mcp';
  const now = options.now ?? Date.now;

  return async (ctx, next) => {
    if (ctx.kind !== 'request' || exempt.has(ctx.method)) return next();
    const tool = ctx.method === 'tools/call' ? targetOf(ctx.method, ctx.params).tool : undefined;
    const toolLimit = tool === undefined ? undefined : toolLimits.get(tool);
    if (limit === undefined && toolLimit === undefined) return next();
    const who = (await keyOf(ctx)) ?? 'anonymous';
    const at = now();
    // The tool's bucket first: a call refused for its tool does not also spend the caller's token.
    if (toolLimit !== undefined) {
      const taken = await store.take(`${prefix}:${who}:tool:${tool}`, toolLimit, 1, at);
      if (!taken.allowed) throw refusal(taken.retryAfterMs, toolLimit, tool);
    }
    if (limit !== undefined) {
      const taken = await store.take(`${prefix}:${who}`, limit, 1, at);
      if (!taken.allowed) throw refusal(taken.retryAfterMs, limit, undefined);
    }
    return next();
  };
}
