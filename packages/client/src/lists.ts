import type {
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from '@mcpkit/protocol';
import { McpClientError } from './errors';
import type { CallOptions, ClientOptions } from './options';
import type { Warnings } from './warnings';

/** The lists a client can walk and keep, keyed by kind. */
export interface Lists {
  tools?: Tool[];
  prompts?: Prompt[];
  resources?: Resource[];
  resourceTemplates?: ResourceTemplate[];
}

/** One of the lists `Client` keeps (`client.lists`). */
export type ListKind = keyof Lists;

/** An item of a list of `kind`. */
export type ListItem<K extends ListKind> = NonNullable<Lists[K]>[number];

/** The result of one page of each list. */
export interface ListPage {
  tools: ListToolsResult;
  prompts: ListPromptsResult;
  resources: ListResourcesResult;
  resourceTemplates: ListResourceTemplatesResult;
}

/** The request that fetches a page of each list; the page's items sit under the field named like the kind. */
export const LIST_METHOD: Readonly<Record<ListKind, string>> = {
  tools: 'tools/list',
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
};

/** The lists each list-changed notification makes stale. */
export const LISTS_CHANGED_BY: Readonly<Record<string, readonly ListKind[]>> = {
  'notifications/tools/list_changed': ['tools'],
  'notifications/prompts/list_changed': ['prompts'],
  'notifications/resources/list_changed': ['resources', 'resourceTemplates'],
};

const MAX_PAGES = 10_000;

/** The params of the page at `cursor` (none for the first page). */
export function cursorParams(cursor: string | undefined): { cursor?: string } {
  return cursor === undefined ? {} : { cursor };
}

/** Walks every page of a list by `nextCursor` (bounded; a repeated cursor fails) and returns all its items. */
export async function walkPages<K extends ListKind>(
  kind: K,
  page: (cursor: string | undefined) => Promise<object>,
): Promise<ListItem<K>[]> {
  const method = LIST_METHOD[kind];
  const items: ListItem<K>[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= MAX_PAGES) {
      throw new McpClientError('ERR_PAGINATION', `${method}: more than ${MAX_PAGES} pages`, { method });
    }
    const result = (await page(cursor)) as Record<string, unknown>;
    const list = result[kind];
    if (Array.isArray(list)) for (const item of list) items.push(item as ListItem<K>);
    const next = result.nextCursor;
    if (typeof next !== 'string') return items;
    if (seen.has(next)) {
      throw new McpClientError('ERR_PAGINATION', `${method}: the server repeated cursor ${JSON.stringify(next)}`, {
        method,
        cursor: next,
      });
    }
    seen.add(next);
    cursor = next;
  }
}

/** What a {@link ListKeeper} needs from the client. */
export interface ListKeeperOptions {
  /** Fetches one page of `kind` (for tools: `listTools`, which filters the page and remembers its tools). */
  readonly page: <K extends ListKind>(
    kind: K,
    params: { cursor?: string },
    options: CallOptions | undefined,
  ) => Promise<ListPage[K]>;
  /** Refetch walked lists when the server says they changed (`refreshListsOnChange`). */
  readonly refreshOnChange: boolean;
  readonly onRefreshed: ClientOptions['onListRefreshed'];
  /** Where a failed refresh is reported (nobody awaits it). */
  readonly warnings: Warnings;
}

/**
 * The lists a client keeps: the last complete list of each kind walked with `listAll*` (refetched when the server says
 * it changed), and the definition of each tool as last listed (`callTool` checks `structuredContent` against it).
 */
export class ListKeeper {
  /** The last complete list of each kind. */
  readonly lists: Lists = {};
  readonly #tools = new Map<string, Tool>();
  readonly #options: ListKeeperOptions;

  constructor(options: ListKeeperOptions) {
    this.#options = options;
  }

  /** The definition of tool `name` as last listed. */
  tool(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** Remembers listed tool definitions (a page of `tools/list`). */
  rememberTools(tools: readonly Tool[]): void {
    for (const tool of tools) this.#tools.set(tool.name, tool);
  }

  /** Walks every page of `kind` and keeps the list; a complete tool list replaces every remembered definition. */
  async walk<K extends ListKind>(kind: K, options: CallOptions | undefined): Promise<ListItem<K>[]> {
    const items = await walkPages(kind, (cursor) => this.#options.page(kind, cursorParams(cursor), options));
    (this.lists as Record<ListKind, unknown>)[kind] = items;
    if (kind === 'tools') {
      this.#tools.clear();
      this.rememberTools(items as Tool[]);
    }
    return items;
  }

  /** The server said these lists changed: refetch those already walked, in the background. */
  changed(kinds: readonly ListKind[]): void {
    if (!this.#options.refreshOnChange) return;
    for (const kind of kinds) if (this.lists[kind] !== undefined) void this.#refresh(kind);
  }

  async #refresh(kind: ListKind): Promise<void> {
    try {
      const items = await this.walk(kind, { cache: false });
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
