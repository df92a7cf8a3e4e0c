import { KeepAliveError } from './keep-alive-error';

/** Options of keep-alive, on either side. */
export interface KeepAliveOptions {
  /** Time between the end of one ping and the next, in ms. Default 30 000. */
  intervalMs?: number;
  /** How long a ping may stay unanswered before it counts as missed, in ms. Default: `intervalMs`. */
  timeoutMs?: number;
  /** Missed pings in a row that close the connection. Default 3. */
  maxMissed?: number;
  /** Told when keep-alive closed a connection (after it closed). */
  onClose?: (error: KeepAliveError) => void;
}

/** What one pinger needs from the connection it watches. */
export interface PingTarget {
  /**
   * Sends `ping` and resolves when answered; rejects on timeout (`ERR_REQUEST_TIMEOUT`) or failure. May resolve at
   * once without sending when there is nothing to ping right now (a client between connections).
   */
  ping(timeoutMs: number): Promise<unknown>;
  /** Whether to keep watching at all; `false` stops the pinger for good (a closed server session). */
  alive(): boolean;
  /** Closes the connection with `reason`: pending requests fail at once naming it. */
  close(reason: KeepAliveError): Promise<void>;
}

function isTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_REQUEST_TIMEOUT';
}

/** Resolved options, checked once. */
export interface KeepAliveSettings {
  intervalMs: number;
  timeoutMs: number;
  maxMissed: number;
  onClose: ((error: KeepAliveError) => void) | undefined;
}

export function keepAliveSettings(options: KeepAliveOptions): KeepAliveSettings {
  const intervalMs = options.intervalMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? intervalMs;
  const maxMissed = options.maxMissed ?? 3;
  if (!(intervalMs > 0) || !(timeoutMs > 0) || !Number.isInteger(maxMissed) || maxMissed < 1) {
    throw new RangeError(
      `keepAlive: intervalMs and timeoutMs must be positive and maxMissed an integer >= 1, got ${JSON.stringify(options)}`,
    );
  }
  return { intervalMs, timeoutMs, maxMissed, onClose: options.onClose };
}

/**
 * Pings one connection until it ends. Only a ping that times out counts as missed: one that could not be sent (an
 * HTTP session whose client opened no GET stream) proves nothing about the client and is skipped. Timers are unref'd,
 * so keep-alive never keeps a process running.
 */
export class Pinger {
  #missed = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(
    private readonly target: PingTarget,
    private readonly settings: KeepAliveSettings,
  ) {}

  start(): void {
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    if (this.#stopped) return;
    const timer = setTimeout(() => void this.#tick(), this.settings.intervalMs);
    (timer as { unref?: () => void }).unref?.();
    this.#timer = timer;
  }

  async #tick(): Promise<void> {
    this.#timer = undefined;
    if (this.#stopped) return;
    if (!this.target.alive()) {
      this.stop();
      return;
    }
    try {
      await this.target.ping(this.settings.timeoutMs);
      this.#missed = 0;
    } catch (error) {
      if (isTimeout(error)) this.#missed++;
    }
    if (this.#stopped) return;
    const { maxMissed, intervalMs, timeoutMs } = this.settings;
    if (this.#missed >= maxMissed) {
      const missed = this.#missed;
      this.#missed = 0;
      const reason = new KeepAliveError(
        'ERR_KEEP_ALIVE',
        `Closed by keep-alive: ${missed} pings in a row got no answer within ${timeoutMs} ms`,
        { missed, intervalMs, timeoutMs },
      );
      await this.target.close(reason).catch(() => undefined);
      try {
        this.settings.onClose?.(reason);
      } catch {
        // A throwing callback must not escape a timer.
      }
    }
    // After a close, `alive()` decides at the next tick: a server session is gone for good (the pinger stops); a
    // client may connect again, and is watched again.
    this.#schedule();
  }
}
