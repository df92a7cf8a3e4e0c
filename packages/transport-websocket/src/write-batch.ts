/**
 * One socket write per event-loop turn instead of one per message.
 *
 * `ws` writes every frame with its own `write` on the TCP socket, and Node turns each into a `writev` syscall: with
 * 64 requests in flight that syscall was a third of the CPU of both ends, where stdio (which corks its stream for the
 * turn) makes one. This holds the TCP socket under `ws` corked from the first frame of a turn until the turn's
 * callbacks and promises have run, so all of the turn's frames leave in one syscall, as on stdio. Nothing is dropped or
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

/** Batches the frames written on one `ws` socket; see the module comment. */
export class WriteBatch {
  readonly #stream: Corkable;
  #held = false;

  constructor(stream: Corkable) {
    this.#stream = stream;
  }

  /** Call before each frame is written: the first one of a turn corks the socket until the end of the turn. */
  hold(): void {
    if (this.#held) return;
    this.#held = true;
    this.#stream.cork();
    endOfTurn(this.flush);
  }

  /** Writes what is held now (the end of the turn, and before closing, so close and terminate cannot lose it). */
  readonly flush = (): void => {
    if (!this.#held) return;
    this.#held = false;
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
