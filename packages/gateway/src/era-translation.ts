import type { Era } from '@mcpkit/server';

const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/**
 * An upstream result as the downstream's era may carry it. `resultType` is dropped (the front server sets its own for a
 * 2026-07-28 client; older revisions have none); a 2026-07-28 upstream's caching hints (`ttlMs`, `cacheScope`) and
 * serverInfo travel on to a 2026-07-28 client (the front server leaves hints a result already has) and are dropped for
 * an older one, whose revision has no such fields.
 */
export function resultForDownstream<R>(result: R, era: Era): R {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  const record = result as Record<string, unknown>;
  const modernOnly = era === 'legacy' && ('ttlMs' in record || 'cacheScope' in record || hasServerInfo(record));
  // The common case copies nothing.
  if (!('resultType' in record) && !modernOnly) return result;
  const { resultType: _type, ...rest } = record;
  if (era === 'legacy') {
    delete rest.ttlMs;
    delete rest.cacheScope;
    if (hasServerInfo(rest)) {
      const { [SERVER_INFO_KEY]: _info, ...meta } = rest._meta as Record<string, unknown>;
      if (Object.keys(meta).length === 0) delete rest._meta;
      else rest._meta = meta;
    }
  }
  return rest as R;
}

function hasServerInfo(record: Record<string, unknown>): boolean {
  const meta = record._meta;
  return typeof meta === 'object' && meta !== null && SERVER_INFO_KEY in meta;
}
