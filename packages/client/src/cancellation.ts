import type { RequestId } from '@mcpkit/jsonrpc-core';

/**
 * Decides whether aborting (or timing out) one of our requests may tell the server with `notifications/cancelled`.
 * Silenced requests never do: the era probe (a legacy server never knew it) and listen streams the server already
 * ended. Whether the notification is the way at all is the transport's call (`Transport.cancelsBySignal`: Streamable
 * HTTP in 2026-07-28 closes the response stream instead).
 */
export class CancellationPolicy {
  readonly #silenced = new Set<RequestId>();

  /** Aborting request `id` sends nothing until {@link unsilence}. */
  silence(id: RequestId): void {
    this.#silenced.add(id);
  }

  unsilence(id: RequestId): void {
    this.#silenced.delete(id);
  }

  /** The peer hook: whether the cancellation of request `id` may be sent. */
  mayCancel(id: RequestId): boolean {
    return !this.#silenced.has(id);
  }
}
