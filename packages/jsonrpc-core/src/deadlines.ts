// One timer for every request in flight on a peer, instead of one or two per request: each request keeps its
// deadlines as numbers, and the timer is armed for the earliest. A sequential client (one request at a time, all with
// the same timeout) touches the timer once per timeout period rather than twice per request; creating and clearing a
// timer was a quarter of a call's cost in the client, and a large part of its garbage.

type Timer = ReturnType<typeof setTimeout>;

// Node's and Bun's timers can stop holding the process open (`unref`); browsers' and Deno's are plain numbers.
type NodeTimer = { ref?: () => void; unref?: () => void };

// setTimeout overflows above 2^31-1 ms (about 24.8 days) and fires at once; clamp instead.
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** Monotonic milliseconds (the clock of every deadline). */
export function now(): number {
  return performance.now();
}

/**
 * A single timer that fires no later than the earliest deadline it was armed for. While no request is in flight it no
 * longer keeps the process alive (`idle`); it fires once more, finds nothing due, and is dropped.
 */
export class Deadlines {
  readonly #onFire: (time: number) => void;
  #timer: Timer | undefined = undefined;
  #at = Infinity;
  #held = false;

  /** `onFire(now)` runs when the timer fires: check what is due, then `arm` the next deadline. */
  constructor(onFire: (time: number) => void) {
    this.#onFire = onFire;
  }

  /** Makes sure the timer fires no later than `deadline` (`now()` time) and keeps the process alive meanwhile. */
  arm(deadline: number): void {
    const timer = this.#timer;
    if (timer !== undefined && deadline >= this.#at) {
      if (!this.#held) {
        (timer as NodeTimer).ref?.();
        this.#held = true;
      }
      return;
    }
    if (timer !== undefined) clearTimeout(timer);
    this.#at = deadline;
    this.#held = true;
    this.#timer = setTimeout(this.#fire, Math.min(Math.max(0, Math.ceil(deadline - now())), MAX_TIMER_DELAY_MS));
  }

  /** Nothing is in flight: the timer stops holding the process open. */
  idle(): void {
    if (this.#timer !== undefined && this.#held) {
      (this.#timer as NodeTimer).unref?.();
      this.#held = false;
    }
  }

  /** Drops the timer. */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#at = Infinity;
    this.#held = false;
  }

  readonly #fire = () => {
    this.stop(); // (clearing the timer that just fired does nothing)
    this.#onFire(now());
  };
}
