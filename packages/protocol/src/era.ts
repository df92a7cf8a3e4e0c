// The era a message belongs to, decided in one place. The 2024-11-05 … 2025-11-25 revisions (the legacy era) negotiate
// a version once per connection with `initialize`; 2026-07-28 (the modern era) names its version on every request in
// the `_meta` envelope. Transports and the server read the envelope's version here and nowhere else, then pass the
// decision down with the message.
import { isJsonObject } from '@mcpkit/jsonrpc-core';
import { MetaKeys } from './meta.js';
import { isModernVersion } from './versions.js';

/**
 * A protocol era: `legacy` (2024-11-05 … 2025-11-25: `initialize`, sessions, server→client requests) or `modern`
 * (2026-07-28: stateless, a `_meta` envelope on every request, `server/discover`).
 *
 * @example
 * ```ts
 * const era: Era = eraOfVersion('2025-11-25'); // 'legacy'
 * ```
 */
export type Era = 'legacy' | 'modern';

/**
 * The protocol version a message's `_meta` envelope names (`io.modelcontextprotocol/protocolVersion`), or `undefined`
 * when there is no envelope or it names no version. Only reads the key: checking the envelope is
 * {@link readRequestEnvelope}'s job.
 *
 * @example
 * ```ts
 * envelopeVersion({ _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }); // '2026-07-28'
 * envelopeVersion({ name: 'echo' }); // undefined
 * ```
 */
export function envelopeVersion(params: unknown): unknown {
  if (!isJsonObject(params)) return undefined;
  const meta = params._meta;
  return isJsonObject(meta) ? meta[MetaKeys.ProtocolVersion] : undefined;
}

/**
 * The era of a message that travels on its own (no connection fixed its era): modern exactly when its params carry a
 * `_meta` envelope naming a protocol version (of any value: a wrong one is the modern rules' error to report), legacy
 * otherwise. A transport decides it once and hands it to the server (`Server.handle(request, { era })`).
 *
 * @example
 * ```ts
 * messageEra({ _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }); // 'modern'
 * messageEra(undefined); // 'legacy'
 * ```
 */
export function messageEra(params: unknown): Era {
  return envelopeVersion(params) === undefined ? 'legacy' : 'modern';
}

/**
 * The era of a known protocol version: `modern` for 2026-07-28 and later known revisions, `legacy` for the others.
 *
 * @example
 * ```ts
 * eraOfVersion('2026-07-28'); // 'modern'
 * eraOfVersion('2025-06-18'); // 'legacy'
 * ```
 */
export function eraOfVersion(version: string): Era {
  return isModernVersion(version) ? 'modern' : 'legacy';
}
