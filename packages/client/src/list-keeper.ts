// The lists `Client` keeps (`client.lists`): installed by `Client` on top of `LeanClient`, which walks lists
// (`listAll*`) without keeping them.
import type { ListKind, Lists } from './lists';
import type { CallOptions, ClientOptions } from './options';
import type { Warnings } from './warnings';

/** What a {@link ListKeeper} needs from the client. */
export interface ListKeeperOptions {
  /** Walks every page of `kind` (`listAll*`: it hands the items to {@link ListKeeper.kept}). */
  readonly walk: (kind: ListKind, options: CallOptions | undefined) => Promise<unknown[]>;
  /** Refetch walked lists when the server says they changed (`refreshListsOnChange`). */
  readonly refreshOnChange: boolean;
  readonly onRefreshed: ClientOptions['onListRefreshed'];
  /** Where a failed refresh is reported (nobody awaits it). */
  readonly warnings: Warnings;
}

/**
 * The lists a `Client` keeps: the last complete list of each kind walked with `listAll*`, refetched when the server
 * says it changed (`refreshListsOnChange`).
 */
export class ListKeeper {
  /** The last complete list of each kind. */
  readonly lists: Lists = {};
  readonly #options: ListKeeperOptions;

  constructor(options: ListKeeperOptions) {
    this.#options = options;
  }

  /** Keeps a complete list just walked. */
  kept(kind: ListKind, items: unknown[]): void {
    (this.lists as Record<ListKind, unknown>)[kind] = items;
  }

  /** The server said these lists changed: refetch those already walked, in the background. */
  changed(kinds: readonly ListKind[]): void {
    if (!this.#options.refreshOnChange) return;
    for (const kind of kinds) if (this.lists[kind] !== undefined) void this.#refresh(kind);
  }

  async #refresh(kind: ListKind): Promise<void> {
    try {
      const items = await this.#options.walk(kind, { cache: false });
      this.#options.onRefreshed?.(kind, items);
    } catch (error) {
      this.#options.warnings.once(
        `refresh:${kind}:${Date.now()}`,
        `Could not refresh ${kind} after a list-changed notification: ${error instanceof Error ? error.message : String(error)}`,
        { kind },
      );
    }
  }
}
