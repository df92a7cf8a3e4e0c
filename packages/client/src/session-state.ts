import {
  type DiscoverResult,
  getValidators,
  type Implementation,
  isModernVersion,
  type ModernProtocolVersion,
  readServerInfo,
  type ServerCapabilities,
  type ValidationResult,
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

const NOT_COMPLETE: ValidationResult = Object.freeze({
  ok: false as const,
  issues: [{ path: '$.resultType', code: 'invalid_value' as const, message: 'expected "complete"' }],
});

/**
 * Checks `value` against the `DiscoverResult` schema of `version` and requires it to be complete: a discover answer
 * is never interim. Not a hot path (once per connection, and per `discover()`).
 */
export function checkDiscoverResult(version: ModernProtocolVersion, value: unknown): ValidationResult {
  const verdict = getValidators(version).discoverResult(value);
  if (!verdict.ok) return verdict;
  return (value as DiscoverResult).resultType === 'complete' ? verdict : NOT_COMPLETE;
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
