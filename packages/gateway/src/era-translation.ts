import { type ClientCapabilities, type LoggingLevel, TASKS_EXTENSION_ID } from '@mcpkit/protocol';
import type { Era, ServerRequestContext } from '@mcpkit/server';

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
  // A 2026-07-28 caller of a 2026-07-28 upstream: the front server writes `resultType: 'complete'` over the copy it
  // makes anyway, so the common result crosses without one here.
  if (era === 'modern' && record.resultType === 'complete') return result;
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

/**
 * The level the upstream should log a forwarded request at: the caller's. A legacy caller gets every entry until it
 * sets a level (the revision's rule), so the upstream is asked for everything and the front server filters.
 */
export function upstreamLogLevel(ctx: ServerRequestContext): LoggingLevel | undefined {
  if (ctx.era === 'modern') return ctx.logLevel;
  return ctx.session?.logLevel ?? ctx.logLevel ?? 'debug';
}

/**
 * What a forwarded request declares to a 2026-07-28 upstream: what its caller can answer of what the gateway passes on
 * (sampling, elicitation, roots, and the extensions the mount crosses), so the upstream asks only what will be answered.
 */
export function upstreamCapabilities(
  ctx: ServerRequestContext,
  crossed: Readonly<Record<string, unknown>> | undefined,
  tasks = false,
): ClientCapabilities {
  const caller = ctx.clientCapabilities;
  const declared: ClientCapabilities = {};
  if (caller.sampling !== undefined) declared.sampling = caller.sampling;
  if (caller.elicitation !== undefined) declared.elicitation = caller.elicitation;
  if (caller.roots !== undefined) declared.roots = caller.roots;
  const extensions = caller.extensions;
  if (extensions !== undefined) {
    // The tasks extension for a call crossing as a task: the gateway's own task follows the upstream's.
    for (const id of tasks ? [TASKS_EXTENSION_ID, ...Object.keys(crossed ?? {})] : Object.keys(crossed ?? {})) {
      if (extensions[id] === undefined) continue;
      declared.extensions ??= {};
      declared.extensions[id] = extensions[id];
    }
  }
  return declared;
}
