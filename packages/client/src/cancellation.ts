import type { RequestId } from '@mcpkit/jsonrpc-core';
import type { SessionState } from './session-state';

/**
 * Decides whether aborting (or timing out) one of our requests tells the server with `notifications/cancelled`.
 * Legacy always does; 2026-07-28 only where the transport needs it (`modernCancellationNotifications`). Silenced
 * requests never do: the era probe (a legacy server never knew it) and listen streams the server already ended.
 */
export class CancellationPolicy {
  readonly #silenced = new Set<RequestId>();
  readonly #session: () => SessionState | undefined;

  constructor(session: () => SessionState | undefined) {
    this.#session = session;
  }

  /** Aborting request `id` sends nothing until {@link unsilence}. */
  silence(id: RequestId): void {
    this.#silenced.add(id);
  }

  unsilence(id: RequestId): void {
    this.#silenced.delete(id);
  }

  /** The peer hook: whether the cancellation of request `id` may be sent. */
  mayCancel(id: RequestId): boolean {
    if (this.#silenced.has(id)) return false;
    const session = this.#session();
    return session === undefined || session.era === 'legacy' || session.modernCancellation;
  }
}
