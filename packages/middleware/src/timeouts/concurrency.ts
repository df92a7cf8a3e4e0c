import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import type { ServerMiddleware } from '@mcpkit/server';
import { MiddlewareErrorCode } from '../shared/errors';
import { targetOf } from '../shared/request-facts';

/** How many calls of one tool may run at once, and how many may wait for a turn. */
export interface ConcurrencyLimit {
  /** Calls running at once. */
  max: number;
  /** Calls waiting for a turn (in arrival order); beyond it calls are refused. Default 0: refuse at once. */
  queue?: number;
}

/** Options of {@link concurrency}. */
export interface ConcurrencyOptions {
  /** The limit of every tool not named in `tools`. Default: none. */
  default?: ConcurrencyLimit;
  /** Limits per tool name. */
  tools?: Record<string, ConcurrencyLimit>;
}

/** `error.data` of a call refused because its tool is busy ({@link MiddlewareErrorCode.Busy}, 503). */
export interface BusyErrorData {
  tool: string;
  running: number;
  waiting: number;
  max: number;
  queue: number;
}

interface Gate {
  readonly limit: Required<ConcurrencyLimit>;
  running: number;
  readonly waiting: (() => void)[];
}

function check(limit: ConcurrencyLimit, what: string): Required<ConcurrencyLimit> {
  const queue = limit.queue ?? 0;
  if (!Number.isInteger(limit.max) || limit.max < 1 || !Number.isInteger(queue) || queue < 0) {
    throw new RangeError(`concurrency: ${what} needs an integer max >= 1 and queue >= 0, got ${JSON.stringify(limit)}`);
  }
  return { max: limit.max, queue };
}

/**
 * Per-tool concurrency limits, server-wide (over every session and path): at most `max` calls of a tool run at once,
 * up to `queue` more wait in arrival order, and the rest are refused at once with a JSON-RPC error, code 503
 * ({@link MiddlewareErrorCode.Busy}), naming the tool and its limits. A waiting call whose request is cancelled
 * leaves the queue.
 *
 * @example
 * server.use(concurrency({ tools: { render: { max: 2, queue: 10 } }, default: { max: 50 } }));
 */
export function concurrency(options: ConcurrencyOptions): ServerMiddleware {
  const limits = new Map<string, Required<ConcurrencyLimit>>();
  for (const [name, limit] of Object.entries(options.tools ?? {})) limits.set(name, check(limit, `tools["${name}"]`));
  const fallback = options.default === undefined ? undefined : check(options.default, 'default');
  const gates = new Map<string, Gate>();

  const release = (tool: string, gate: Gate) => {
    const next = gate.waiting.shift();
    if (next !== undefined) {
      next(); // the turn passes straight to the next caller: running stays the same
      return;
    }
    gate.running--;
    if (gate.running === 0) gates.delete(tool);
  };

  return async (ctx, next) => {
    if (ctx.kind !== 'request' || ctx.method !== 'tools/call') return next();
    const tool = targetOf(ctx.method, ctx.params).tool;
    if (tool === undefined) return next();
    const limit = limits.get(tool) ?? fallback;
    if (limit === undefined) return next();
    let gate = gates.get(tool);
    if (gate === undefined) {
      gate = { limit, running: 0, waiting: [] };
      gates.set(tool, gate);
    }
    if (gate.running < limit.max) {
      gate.running++;
    } else if (gate.waiting.length < limit.queue) {
      const signal = ctx.signal;
      signal.throwIfAborted();
      const queued = gate;
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          signal.removeEventListener('abort', cancelled);
          resolve();
        };
        const cancelled = () => {
          const index = queued.waiting.indexOf(turn);
          if (index !== -1) queued.waiting.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', cancelled, { once: true });
        queued.waiting.push(turn);
      });
    } else {
      const data: BusyErrorData = {
        tool,
        running: gate.running,
        waiting: gate.waiting.length,
        max: limit.max,
        queue: limit.queue,
      };
      throw new JsonRpcError(
        MiddlewareErrorCode.Busy,
        `Tool "${tool}" is busy: ${gate.running} calls running and ${gate.waiting.length} waiting (limits ${limit.max} and ${limit.queue}); try again later`,
        data,
      );
    }
    const held = gate;
    try {
      return await next();
    } finally {
      release(tool, held);
    }
  };
}
