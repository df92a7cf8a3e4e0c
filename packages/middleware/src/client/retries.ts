import { type ClientMiddleware, ClientRequestContext } from '@mcpkit/client';
import { MiddlewareErrorCode } from '../shared/errors';

/** The methods retried by default: those that change nothing on the server, so sending them twice is harmless. */
export const IDEMPOTENT_METHODS: readonly string[] = [
  'tools/list',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
  'server/discover',
  'ping',
];

/** Options of {@link retries}. */
export interface RetriesOptions {
  /** Attempts in all, the first included. Default 3. */
  maxAttempts?: number;
  /** The backoff before the first retry, in ms; doubled for each further one. Default 200. */
  baseDelayMs?: number;
  /** The longest wait between attempts, in ms (a server's longer `retryAfterMs` gives up instead). Default 10 000. */
  maxDelayMs?: number;
  /**
   * The methods retried. Default {@link IDEMPOTENT_METHODS} (lists, reads, gets, completions). Add only methods that
   * are safe to send twice: a `tools/call` that timed out may have run.
   */
  methods?: readonly string[];
  /** Which failures are worth another attempt. Default {@link isTransientError}. */
  retryOn?: (error: unknown) => boolean;
  /** Told before each retry (for logs). */
  onRetry?: (info: { method: string; attempt: number; delayMs: number; error: unknown }) => void;
  /** The randomness of the jitter, in [0, 1) (tests). Default `Math.random`. */
  random?: () => number;
}

const TRANSIENT_CODES: ReadonlySet<number> = new Set([
  MiddlewareErrorCode.RateLimited,
  MiddlewareErrorCode.Busy,
  MiddlewareErrorCode.TimedOut,
]);
const TRANSIENT_HTTP_STATUS: ReadonlySet<number> = new Set([408, 425, 429, 500, 502, 503, 504]);

function retryAfterOf(error: unknown): number | undefined {
  const data = (error as { data?: { retryAfterMs?: unknown } } | null)?.data;
  const ms = data?.retryAfterMs;
  return typeof ms === 'number' && ms >= 0 && Number.isFinite(ms) ? ms : undefined;
}

/**
 * The default of `retryOn`: a failure that may well not happen again. Server errors 429 (rate limited), 503 (busy) and
 * 504 (timed out) of this package, any error whose `data.retryAfterMs` says when to come back, a request that got
 * no answer in time (`ERR_REQUEST_TIMEOUT`), and HTTP transport failures: the network (`ERR_NETWORK`) or a status
 * 408, 425, 429, 500, 502, 503, 504. Protocol errors (bad params, not found, no capability) are never retried.
 */
export function isTransientError(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, data } = error as { code?: unknown; data?: { status?: unknown } };
  if (typeof code === 'number') return TRANSIENT_CODES.has(code) || retryAfterOf(error) !== undefined;
  if (code === 'ERR_REQUEST_TIMEOUT' || code === 'ERR_NETWORK') return true;
  if (code === 'ERR_HTTP_STATUS') return typeof data?.status === 'number' && TRANSIENT_HTTP_STATUS.has(data.status);
  return false;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/**
 * Retries a client's idempotent requests (lists, reads, gets, completions) after a transient failure, with
 * exponential backoff and full jitter (a random wait up to `baseDelayMs · 2^(attempt-1)`, capped at `maxDelayMs`).
 * When the server said how long to wait (`error.data.retryAfterMs`, as the rate limiter sends), it waits that long
 * instead; a wait longer than `maxDelayMs` is not made and the error is thrown. `tools/call` is never retried by
 * default. The call's abort signal ends the waiting.
 *
 * @example
 * client.use(retries({ maxAttempts: 4, onRetry: ({ method, attempt, delayMs }) => console.error(method, attempt, delayMs) }));
 */
export function retries(options: RetriesOptions = {}): ClientMiddleware {
  const maxAttempts = options.maxAttempts ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 200;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || !(baseDelayMs >= 0) || !(maxDelayMs >= 0)) {
    throw new RangeError(
      `retries: maxAttempts must be an integer >= 1 and the delays >= 0, got ${JSON.stringify(options)}`,
    );
  }
  const methods = new Set(options.methods ?? IDEMPOTENT_METHODS);
  const retryOn = options.retryOn ?? isTransientError;
  const random = options.random ?? Math.random;

  return async (ctx, next) => {
    if (!(ctx instanceof ClientRequestContext) || !methods.has(ctx.method)) return next();
    for (let attempt = 1; ; attempt++) {
      try {
        return await next();
      } catch (error) {
        if (attempt >= maxAttempts || !retryOn(error)) throw error;
        const asked = retryAfterOf(error);
        let delayMs: number;
        if (asked !== undefined) {
          if (asked > maxDelayMs) throw error;
          delayMs = asked;
        } else {
          delayMs = Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)));
        }
        options.onRetry?.({ method: ctx.method, attempt, delayMs, error });
        await sleep(delayMs, ctx.signal);
      }
    }
  };
}
