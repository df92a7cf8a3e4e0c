import { invalidParamsError } from '@mcpkit/protocol';

/** One page of a list, and the cursor of the next page (absent on the last). */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

// A cursor is base64("<listVersion>:<offset>"). It is opaque to clients; the version lets the server tell a cursor
// minted before the list changed (offsets would shift) from a current one. Its text is ASCII digits and a colon, so
// btoa/atob (in every runtime) encode it with no UTF-8 step.
function encodeCursor(version: number, offset: number): string {
  return btoa(`${version}:${offset}`);
}

function decodeCursor(cursor: unknown): string | undefined {
  if (typeof cursor !== 'string') return undefined;
  try {
    return atob(cursor);
  } catch {
    return undefined;
  }
}

const CURSOR = /^(\d{1,15}):(\d{1,15})$/;

/**
 * Slices `items` into the page `cursor` names. Throws -32602 for a cursor this server did not mint (tampered,
 * malformed) and for one minted before the list changed (`data.reason: 'stale'`: list again from the start).
 */
export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number, version: number): Page<T> {
  let offset = 0;
  if (cursor !== undefined) {
    const text = decodeCursor(cursor);
    const match = text === undefined ? null : CURSOR.exec(text);
    if (match === null) throw invalidParamsError('Invalid cursor: it was not issued by this server', { cursor });
    if (Number(match[1]) !== version) {
      throw invalidParamsError('Stale cursor: the list changed since it was issued; list again from the start', {
        cursor,
        reason: 'stale',
      });
    }
    offset = Number(match[2]);
    if (offset > items.length)
      throw invalidParamsError('Invalid cursor: it points past the end of the list', { cursor });
  }
  if (offset === 0 && items.length <= pageSize) return { items: items as T[] };
  const end = offset + pageSize;
  const page: Page<T> = { items: items.slice(offset, end) };
  if (end < items.length) page.nextCursor = encodeCursor(version, end);
  return page;
}

/**
 * The wire result of a list request: the page's items under `key`, and `nextCursor` only when there is a next page
 * (an absent field, not `undefined`, so results serialise and compare cleanly).
 */
export function pageResult<K extends string, T>(key: K, page: Page<T>): { [P in K]: T[] } & { nextCursor?: string } {
  const result = { [key]: page.items } as { [P in K]: T[] } & { nextCursor?: string };
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
  return result;
}
