import type { Server } from '../server/server';

/** The lists whose changes clients are told about. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/**
 * Coalesces list changes: every change within `debounceMs` of the first goes out as one `list_changed` per kind, so
 * a burst of registrations (or enable/disable toggles) costs clients one re-list.
 */
export class ListChangedDebouncer {
  readonly #server: Server;
  readonly #debounceMs: number;
  readonly #pending = new Set<ListKind>();
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(server: Server, debounceMs: number) {
    this.#server = server;
    this.#debounceMs = debounceMs;
  }

  /** Records that the `kind` list changed; the notification goes out when the window closes. */
  changed(kind: ListKind): void {
    // Nobody to tell (registrations at start-up): a session that connects later lists afresh anyway. With a cluster
    // bus, clients of other instances may be listening.
    const server = this.#server;
    if (server.broadcastRelay === undefined && server.sessions.size === 0 && server.listenStreams.size === 0) return;
    this.#pending.add(kind);
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const kinds = [...this.#pending];
      this.#pending.clear();
      for (const pending of kinds) this.#server.sendListChanged(pending);
    }, this.#debounceMs);
  }

  /** Drops pending notifications (the server is closing). */
  cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending.clear();
  }
}
