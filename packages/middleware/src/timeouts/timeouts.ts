import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import type { ServerMiddleware } from '@mcpkit/server';
import { MiddlewareErrorCode } from '../shared/errors';
import { targetOf } from '../shared/request-facts';

/** Options of {@link timeouts}. */
export interface TimeoutsOptions {
  /** Deadline of every tool call not named in `tools`, in ms. Default: none. */
  defaultMs?: number;
  /** Deadlines per tool name, in ms. */
  tools?: Record<string, number>;
}

/** `error.data` of a tool call stopped at its deadline ({@link MiddlewareErrorCode.TimedOut}, 504). */
export interface TimeoutErrorData {
  tool: string;
  timeoutMs: number;
}

/** The reason a timed-out handler's signal is aborted with. */
export class ToolTimeoutError extends Error {
  constructor(
    readonly tool: string,
    readonly timeoutMs: number,
  ) {
    super(`Tool "${tool}" did not finish within ${timeoutMs} ms`);
    this.name = 'ToolTimeoutError';
  }
}

function checkMs(ms: number, what: string): void {
  if (!(ms > 0) || !Number.isFinite(ms))
    throw new RangeError(`timeouts: ${what} must be a positive number of ms, got ${ms}`);
}

/**
 * Per-tool deadlines. At the deadline the handler's `ctx.signal` is aborted (with a {@link ToolTimeoutError}
 * reason) and the caller gets a JSON-RPC error at once, code 504 ({@link MiddlewareErrorCode.TimedOut}), naming the
 * tool and the deadline; what the handler returns afterwards is dropped. Install it inside (after) middleware that
 * should count the time, and before an extension that rebinds the handler (tasks), whose own signal it would replace.
 *
 * @example
 * server.use(timeouts({ defaultMs: 30_000, tools: { report: 5_000 } }));
 * server.registerTool('report', {}, async (_args, ctx) => {
 *   const rows = await db.query(sql, { signal: ctx.signal }); // stopped at 5 s
 *   return { content: [{ type: 'text', text: String(rows.length) }] };
 * });
 */
export function timeouts(options: TimeoutsOptions): ServerMiddleware {
  const byTool = new Map<string, number>();
  for (const [name, ms] of Object.entries(options.tools ?? {})) {
    checkMs(ms, `tools["${name}"]`);
    byTool.set(name, ms);
  }
  const fallback = options.defaultMs;
  if (fallback !== undefined) checkMs(fallback, 'defaultMs');

  return (ctx, next) => {
    if (ctx.kind !== 'request' || ctx.method !== 'tools/call') return next();
    const tool = targetOf(ctx.method, ctx.params).tool;
    if (tool === undefined) return next();
    const ms = byTool.get(tool) ?? fallback;
    if (ms === undefined) return next();
    const deadline = new AbortController();
    const own = ctx.signal;
    ctx.rebind({ signal: AbortSignal.any([own, deadline.signal]) });
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        const reason = new ToolTimeoutError(tool, ms);
        deadline.abort(reason);
        const data: TimeoutErrorData = { tool, timeoutMs: ms };
        reject(
          new JsonRpcError(
            MiddlewareErrorCode.TimedOut,
            `Tool "${tool}" did not finish within ${ms} ms and was stopped; try again, or ask for less`,
            data,
          ),
        );
      }, ms);
      next().then(
        (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  };
}
