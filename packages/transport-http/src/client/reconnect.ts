import type { AbortSource } from '@mcpkit/jsonrpc-core';

/**
 * How a client transport reconnects a dropped SSE stream (legacy era: the standalone GET stream, and a POST stream
 * that closed before its response, resumed with `Last-Event-ID`).
 */
export interface ReconnectOptions {
  /** Attempts in a row before giving up (an event received resets the count). Default 5; 0 disables reconnecting. */
  maxAttempts?: number;
  /** Delay before the first attempt when the server sent no `retry:`, in ms. Default 1 000. */
  initialDelayMs?: number;
  /** Each further attempt waits this many times longer. Default 1.5. */
  growFactor?: number;
  /** Upper bound of the computed delay, in ms. Default 30 000. */
  maxDelayMs?: number;
}

/** {@link ReconnectOptions} with every default filled in. */
export type ReconnectPolicy = Required<ReconnectOptions>;

/** Fills in the defaults, refusing values that would make reconnecting loop or never wait. */
export function reconnectPolicy(options: ReconnectOptions | undefined): ReconnectPolicy {
  const policy: ReconnectPolicy = {
    maxAttempts: options?.maxAttempts ?? 5,
    initialDelayMs: options?.initialDelayMs ?? 1_000,
    growFactor: options?.growFactor ?? 1.5,
    maxDelayMs: options?.maxDelayMs ?? 30_000,
  };
  for (const [key, value] of Object.entries(policy)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(
        `StreamableHttpClientTransport: reconnect.${key} must be a finite number >= 0, got ${value}`,
      );
    }
  }
  if (policy.growFactor < 1) {
    throw new RangeError(`StreamableHttpClientTransport: reconnect.growFactor must be >= 1, got ${policy.growFactor}`);
  }
  return policy;
}

/**
 * The wait before reconnect attempt `attempt` (0-based). A `retry:` the server sent wins: SEP-1699 says the client
 * MUST wait that long. Otherwise exponential backoff, capped.
 */
export function reconnectDelay(policy: ReconnectPolicy, attempt: number, serverRetryMs: number | undefined): number {
  if (serverRetryMs !== undefined) return serverRetryMs;
  return Math.min(policy.initialDelayMs * policy.growFactor ** attempt, policy.maxDelayMs);
}

/** Waits `ms` before a reconnection attempt; false when `signal` aborted first (the stream is no longer wanted). */
export function waitToReconnect(ms: number, signal: AbortSource): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
