// What follows the downstream caller's era when a request crosses: the shape of the result it gets back, the level the
// upstream logs at, and how it asks for a task. One object per era, picked once per call from `ctx.era`.
import { isJsonObject } from '@mcpkit/jsonrpc-core';
import { type Era, type LoggingLevel, TASKS_EXTENSION_ID } from '@mcpkit/protocol';
import type { ServerRequestContext } from '@mcpkit/server';

const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** The downstream caller's era, as a crossing sees it. */
export interface DownstreamEra {
  /**
   * An upstream result as this era may carry it. `resultType` is dropped (the front server sets its own for a
   * 2026-07-28 client; older revisions have none).
   */
  result<R>(result: R): R;
  /** The level the upstream should log a forwarded request at: the caller's. */
  logLevel(ctx: ServerRequestContext): LoggingLevel | undefined;
  /** Whether the caller asked for a task by its request's capabilities (besides 2025-11-25's `params.task`). */
  asksTaskByCapabilities(ctx: ServerRequestContext): boolean;
}

const legacyDownstream: DownstreamEra = {
  // An older revision has no caching hints (`ttlMs`, `cacheScope`) nor serverInfo: a 2026-07-28 upstream's are dropped.
  result<R>(result: R): R {
    if (!isJsonObject(result)) return result;
    const record: Record<string, unknown> = result;
    const modernOnly = 'ttlMs' in record || 'cacheScope' in record || hasServerInfo(record);
    // The common case copies nothing.
    if (!('resultType' in record) && !modernOnly) return result;
    const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, ...rest } = record;
    if (hasServerInfo(rest)) {
      const { [SERVER_INFO_KEY]: _info, ...meta } = rest._meta as Record<string, unknown>;
      if (Object.keys(meta).length === 0) delete rest._meta;
      else rest._meta = meta;
    }
    return rest as R;
  },
  // A legacy caller gets every entry until it sets a level (the revision's rule), so the upstream is asked for
  // everything and the front server filters.
  logLevel: (ctx) => ctx.session?.logLevel ?? ctx.logLevel ?? 'debug',
  asksTaskByCapabilities: () => false,
};

const modernDownstream: DownstreamEra = {
  // Caching hints and serverInfo travel on (the front server leaves hints a result already has).
  result<R>(result: R): R {
    if (!isJsonObject(result)) return result;
    const record: Record<string, unknown> = result;
    // The front server writes `resultType: 'complete'` over the copy it makes anyway, so the common result crosses
    // without a copy here.
    if (record.resultType === 'complete' || !('resultType' in record)) return result;
    const { resultType: _type, ...rest } = record;
    return rest as R;
  },
  logLevel: (ctx) => ctx.logLevel,
  asksTaskByCapabilities: (ctx) => ctx.clientCapabilities.extensions?.[TASKS_EXTENSION_ID] !== undefined,
};

const DOWNSTREAM_ERAS: Readonly<Record<Era, DownstreamEra>> = { legacy: legacyDownstream, modern: modernDownstream };

/** The crossing rules of the downstream era `era`. */
export function downstreamEra(era: Era): DownstreamEra {
  return DOWNSTREAM_ERAS[era];
}

function hasServerInfo(record: Record<string, unknown>): boolean {
  const meta = record._meta;
  return typeof meta === 'object' && meta !== null && SERVER_INFO_KEY in meta;
}
