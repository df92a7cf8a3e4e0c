import { invalidParamsError } from '@mcpkit/protocol';

// Cursors of `skills/list` and `resources/directory/read`: base64 of "<generation>:<offset>", opaque to clients. The
// generation is the catalog's: a cursor minted before the skills were replaced is refused, not silently shifted.

const CURSOR = /^(\d{1,15}):(\d{1,15})$/;

/** One page of `items` from `cursor` on, with the cursor of the next page when there is one. */
export function pageOf<T>(
  items: readonly T[],
  cursor: unknown,
  pageSize: number,
  generation: number,
): { items: T[]; nextCursor?: string } {
  let offset = 0;
  if (cursor !== undefined) {
    let text: string | undefined;
    try {
      text = typeof cursor === 'string' ? atob(cursor) : undefined;
    } catch {
      text = undefined;
    }
    const match = text === undefined ? null : CURSOR.exec(text);
    if (match === null) throw invalidParamsError('Invalid cursor: it was not issued by this server', { cursor });
    if (Number(match[1]) !== generation) {
      throw invalidParamsError('Stale cursor: the skills changed since it was issued; list again from the start', {
        cursor,
        reason: 'stale',
      });
    }
    offset = Number(match[2]);
    if (offset > items.length) throw invalidParamsError('Invalid cursor: it points past the end', { cursor });
  }
  const end = offset + pageSize;
  const page: { items: T[]; nextCursor?: string } = { items: items.slice(offset, end) };
  if (end < items.length) page.nextCursor = btoa(`${generation}:${end}`);
  return page;
}
