import { isJsonObject } from '@mcpkit/jsonrpc-core';
import {
  type DiscoverResult,
  type Implementation,
  isModernVersion,
  type ModernProtocolVersion,
  readServerInfo,
  type ServerCapabilities,
} from '@mcpkit/protocol';
import type { Era } from './options';

/**
 * What a connection settled with the server. Negotiation creates it; a fresh `server/discover` answer and a version
 * switch after -32022 update it. A plain object: the client owns it, the pieces that send requests read it.
 */
export interface SessionState {
  era: Era;
  /** The protocol version requests are sent with. */
  version: string;
  serverCapabilities: ServerCapabilities;
  /** Legacy: from `initialize`; modern: from the discover result's `_meta`. */
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
}

/** One reason a value is not a `DiscoverResult`: where (`$.ttlMs`), and what. */
export interface DiscoverIssue {
  path: string;
  message: string;
}

/** The verdict of `checkDiscoverResult`. */
export type DiscoverCheck = { ok: true } | { ok: false; issues: DiscoverIssue[] };

const VALID: DiscoverCheck = Object.freeze({ ok: true as const });

/**
 * Checks that `value` is a complete 2026-07-28 `DiscoverResult` (every revision of that era shares its shape): the
 * members the schema requires, with their types, `resultType: "complete"` (a discover answer is never interim), and
 * every capability an object. Hand-written rather than the revision's whole validator
 * (`@mcpkit/protocol/validation`), which would add about 50 KiB to every client for one check per connection; the
 * capability objects' inner members are read where they are used. `version` is the version it was asked in.
 */
export function checkDiscoverResult(_version: ModernProtocolVersion, value: unknown): DiscoverCheck {
  if (!isJsonObject(value)) return { ok: false, issues: [{ path: '$', message: 'expected an object' }] };
  const issues: DiscoverIssue[] = [];
  const expect = (ok: boolean, key: string, message: string) => {
    if (!ok) issues.push({ path: `$.${key}`, message });
  };
  const { resultType, ttlMs, cacheScope, capabilities, instructions, supportedVersions, _meta } = value;
  expect(resultType === 'complete', 'resultType', 'expected "complete"');
  expect(Number.isInteger(ttlMs), 'ttlMs', 'expected an integer');
  expect(cacheScope === 'public' || cacheScope === 'private', 'cacheScope', 'expected "public" or "private"');
  expect(
    Array.isArray(supportedVersions) && supportedVersions.every((entry) => typeof entry === 'string'),
    'supportedVersions',
    'expected an array of strings',
  );
  expect(instructions === undefined || typeof instructions === 'string', 'instructions', 'expected a string');
  expect(_meta === undefined || isJsonObject(_meta), '_meta', 'expected an object');
  if (!isJsonObject(capabilities)) expect(false, 'capabilities', 'expected an object');
  else {
    for (const [name, capability] of Object.entries(capabilities)) {
      expect(capability === undefined || isJsonObject(capability), `capabilities.${name}`, 'expected an object');
    }
  }
  return issues.length === 0 ? VALID : { ok: false, issues };
}

/** The state of a 2026-07-28 connection in `version`, from the server's `DiscoverResult`. */
export function modernSession(version: string, result: DiscoverResult): SessionState {
  return {
    era: 'modern',
    version,
    serverCapabilities: result.capabilities,
    serverInfo: readServerInfo(result),
    instructions: result.instructions,
  };
}

/**
 * Updates `session` from a later `server/discover` answer (capabilities and instructions may have changed); an answer
 * that is not a complete `DiscoverResult` of the session's version changes nothing.
 */
export function refreshSession(session: SessionState, result: unknown): void {
  if (!isModernVersion(session.version) || !checkDiscoverResult(session.version, result).ok) return;
  const discovered = result as DiscoverResult;
  session.serverCapabilities = discovered.capabilities;
  session.instructions = discovered.instructions;
  session.serverInfo = readServerInfo(discovered) ?? session.serverInfo;
}
