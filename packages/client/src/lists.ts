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
