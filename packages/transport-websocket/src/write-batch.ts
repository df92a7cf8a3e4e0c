/**
 * One socket write per eight frames of an event-loop turn instead of one per message.
 *
 * `ws` writes every frame with its own `write` on the TCP socket, and Node turns each into a `writev` syscall: with
 * 64 requests in flight that syscall was a third of the CPU of both ends, where stdio (which corks its stream for the
 * turn) makes one. This holds the TCP socket under `ws` corked from the first frame of a turn until the turn's
 * callbacks and promises have run, so the turn's frames leave in one syscall per eight, as on stdio. Nothing is dropped or
 * reordered: frames are only held back in the socket's own buffer until the end of the turn, where they count in
 * `bufferedAmount` as any queued frame does, so back-pressure sees them.
 *
 * The TCP socket is `ws`'s `_socket` (ws 8's `WebSocket` has no public batching API; its `Sender` corks the same socket
 * around each frame's two writes, which nests under ours). Any other `WebSocket` (browsers, Deno, Node 22's global one)
 * has no such socket and is written to frame by frame as before.
 */

/** The part of a Node `Writable` that can hold writes back until released. */
interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * The end of the turn: `process.nextTick` where there is one (its queue runs after every promise reaction of the
 * turn), else a microtask. Read from the global, so the client entry imports no Node module.
 */
const endOfTurn: (callback: () => void) => void =
  (globalThis as { process?: { nextTick?: (callback: () => void) => void } }).process?.nextTick ?? queueMicrotask;

/**
 * The most frames one write carries. Holding a whole turn's frames made the two ends of a pipelined connection take
 * turns: the reader had nothing until the writer's turn ended, then the writer waited. Releasing them eight at a time
 * lets the reader start on the first while the rest are made, on another core, and still saves seven writes in eight.
 */
const FRAMES_PER_WRITE = 8;

/** Batches the frames written on one `ws` socket; see the module comment. */
export class WriteBatch {
  readonly #stream: Corkable;
  #held = false;
  /** Frames held since the socket was corked. */
  #frames = 0;

  constructor(stream: Corkable) {
    this.#stream = stream;
  }

  /**
   * Call before each frame is written: the first one of a turn corks the socket until the end of the turn; when eight
   * are held, they leave before the ninth is written, and the rest of the turn is held again.
   */
  hold(): void {
    if (!this.#held) {
      this.#held = true;
      this.#frames = 1;
      this.#stream.cork();
      endOfTurn(this.flush);
      return;
    }
    if (this.#frames < FRAMES_PER_WRITE) {
      this.#frames++;
      return;
    }
    this.#stream.uncork();
    this.#stream.cork();
    this.#frames = 1;
  }

  /** Writes what is held now (the end of the turn, and before closing, so close and terminate cannot lose it). */
  readonly flush = (): void => {
    if (!this.#held) return;
    this.#held = false;
    this.#frames = 0;
    this.#stream.uncork();
  };
}

/** The batch for a `ws` socket (its `_socket`), or `undefined` for a `WebSocket` that exposes no TCP socket. */
export function writeBatchOf(socket: object): WriteBatch | undefined {
  const stream = (socket as { _socket?: Partial<Corkable> | null })._socket;
  if (stream === undefined || stream === null) return undefined;
  if (typeof stream.cork !== 'function' || typeof stream.uncork !== 'function') return undefined;
  return new WriteBatch(stream as Corkable);
}
