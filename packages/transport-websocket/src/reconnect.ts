/** Opt-in reconnection for `WebSocketClientTransport` (see the README for what it means in each era). */
export interface ReconnectOptions {
  /** Attempts after a drop before giving up (then `onclose` runs). Default 5. */
  maxAttempts?: number;
  /** Delay before the first attempt. Default 500 ms. */
  initialDelayMs?: number;
  /** Upper bound of the delay. Default 10 000 ms. */
  maxDelayMs?: number;
  /** Growth of the delay per attempt. Default 2. */
  multiplier?: number;
  /** Called before each attempt, with the delay about to be waited and why the socket dropped. */
  onReconnecting?: (event: { attempt: number; delayMs: number; error: Error }) => void;
  /** Called when a new socket is open and messages flow again. */
  onReconnected?: (event: { attempt: number }) => void;
}

/** `ReconnectOptions` with every default filled in. */
export type ResolvedReconnectOptions = Required<Omit<ReconnectOptions, 'onReconnecting' | 'onReconnected'>> &
  Pick<ReconnectOptions, 'onReconnecting' | 'onReconnected'>;

export function resolveReconnectOptions(
  options: ReconnectOptions | boolean | undefined,
): ResolvedReconnectOptions | undefined {
  if (options === undefined || options === false) return undefined;
  const given = options === true ? {} : options;
  return {
    maxAttempts: given.maxAttempts ?? 5,
    initialDelayMs: given.initialDelayMs ?? 500,
    maxDelayMs: given.maxDelayMs ?? 10_000,
    multiplier: given.multiplier ?? 2,
    onReconnecting: given.onReconnecting,
    onReconnected: given.onReconnected,
  };
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so clients that dropped together
 * (a server restart) do not all come back in the same millisecond.
 */
export function backoffDelay(options: ResolvedReconnectOptions, attempt: number): number {
  const base = Math.min(options.maxDelayMs, options.initialDelayMs * options.multiplier ** (attempt - 1));
  return Math.round(base / 2 + (Math.random() * base) / 2);
}
