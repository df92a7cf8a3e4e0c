import { JsonRpcError, JsonRpcErrorCode } from './errors';

/** Runs the rest of the chain (and the handler) and resolves to its result. May be called more than once (retries). */
export type Next<R> = () => Promise<R>;

/**
 * One layer of an onion chain, koa/hono style: do something before `await next()`, something after, or answer without
 * calling `next` at all. What it returns is the result; returning nothing after calling `next` passes `next`'s result
 * on, so `async (ctx, next) => { await next(); log(ctx); }` is fine.
 *
 * @example
 * const timing: Middleware<{ method: string }, unknown> = async (ctx, next) => {
 *   const started = performance.now();
 *   try {
 *     return await next();
 *   } finally {
 *     console.log(ctx.method, performance.now() - started);
 *   }
 * };
 */
export type Middleware<C, R = unknown> = (
  ctx: C,
  next: Next<R>,
  // biome-ignore lint/suspicious/noConfusingVoidType: `async (ctx, next) => { await next(); }` returns Promise<void>
) => R | undefined | void | Promise<R | undefined | void>;

/** How a {@link MiddlewareChain} treats what its layers do wrong. */
export interface MiddlewareChainOptions<C = unknown> {
  /**
   * Whether a layer that neither calls `next` nor returns a value is an error (requests: something must answer) or
   * a deliberate stop (notifications: the layer swallowed it); a function decides per context. Default `true`.
   */
  requireResult?: boolean | ((ctx: C) => boolean);
  /**
   * Turns an error a layer threw itself (not one that came out of `next`) into the error the caller gets. Default:
   * `JsonRpcError`s pass as they are (a deliberate refusal); anything else becomes -32603 "Internal error", so a
   * layer's internals never reach the other side.
   */
  ownError?: (error: unknown) => unknown;
}

function internalError(error: unknown): unknown {
  return JsonRpcError.is(error) ? error : new JsonRpcError(JsonRpcErrorCode.InternalError, 'Internal error');
}

/** The error of a layer that neither called `next` nor returned a value. */
export class MiddlewareResultError extends Error {
  constructor(readonly index: number) {
    super(
      `Middleware #${index + 1} neither called next() nor returned a result; return a value to answer, or return next()`,
    );
    this.name = 'MiddlewareResultError';
  }
}

/**
 * An onion of middleware around a terminal step. Layers run in the order they were added (the first is outermost).
 * Adding or removing a layer affects requests that start afterwards, never one already running. An empty chain
 * costs one length check.
 *
 * @example
 * const chain = new MiddlewareChain<{ method: string }, unknown>();
 * chain.add(async (ctx, next) => ({ wrapped: await next() }));
 * await chain.run({ method: 'ping' }, () => 'pong'); // { wrapped: 'pong' }
 */
export class MiddlewareChain<C, R = unknown> {
  #layers: readonly Middleware<C, R>[] = [];
  readonly #requireResult: boolean | ((ctx: C) => boolean);
  readonly #ownError: (error: unknown) => unknown;

  constructor(options: MiddlewareChainOptions<C> = {}) {
    this.#requireResult = options.requireResult ?? true;
    this.#ownError = options.ownError ?? internalError;
  }

  /** How many layers the chain has. */
  get size(): number {
    return this.#layers.length;
  }

  /** Adds a layer inside the ones already there; returns a function that removes it. */
  add(middleware: Middleware<C, R>): () => void {
    if (typeof middleware !== 'function') {
      throw new TypeError(`A middleware must be a function (ctx, next) => result; got ${typeof middleware}`);
    }
    this.#layers = [...this.#layers, middleware];
    return () => {
      this.#layers = this.#layers.filter((layer) => layer !== middleware);
    };
  }

  /** Runs `terminal` inside every layer. */
  run(ctx: C, terminal: (ctx: C) => R | Promise<R>): Promise<R> {
    return this.#step(this.#layers, 0, ctx, terminal);
  }

  // One frame per layer and a .then on what the layer answers: cheaper than an async function (bench:middleware's
  // empty layer, and apps/bench hop-cpu's allocations). What the layer throws, at once or later, rejects alike.
  #step(layers: readonly Middleware<C, R>[], index: number, ctx: C, terminal: (ctx: C) => R | Promise<R>): Promise<R> {
    if (index === layers.length) {
      try {
        return Promise.resolve(terminal(ctx));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    let called = false;
    let passed: R | undefined;
    let failedNext = false;
    let fromNext: unknown;
    // Not an async arrow: a .then on the inner run costs less than a frame and an await, once per layer per request.
    const next: Next<R> = () => {
      called = true;
      let inner: R | Promise<R>;
      try {
        // The innermost layer's next calls the terminal itself: no async frame (and promise) of #step around it.
        inner = index + 1 === layers.length ? terminal(ctx) : this.#step(layers, index + 1, ctx, terminal);
      } catch (error) {
        failedNext = true;
        fromNext = error;
        return Promise.reject(error);
      }
      return Promise.resolve(inner).then(
        (value) => {
          passed = value;
          return value;
        },
        (error: unknown) => {
          failedNext = true;
          fromNext = error;
          throw error;
        },
      );
    };
    let ran: ReturnType<Middleware<C, R>>;
    try {
      ran = layers[index]!(ctx, next);
    } catch (error) {
      ran = Promise.reject(error);
    }
    return Promise.resolve(ran).then(
      (result) => {
        if (result !== undefined) return result as R;
        if (called) return passed as R;
        const required = this.#requireResult;
        if (required === true || (required !== false && required(ctx))) {
          throw this.#ownError(new MiddlewareResultError(index));
        }
        return undefined as R;
      },
      (error: unknown) => {
        // An error that came out of `next` passes as it is; one the layer raised itself is the layer's own.
        throw failedNext && error === fromNext ? error : this.#ownError(error);
      },
    );
  }
}
