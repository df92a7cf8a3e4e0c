// The check of a 2026-07-28 `DiscoverResult`, shared by negotiation and the modern era's refresh.
import { isJsonObject } from '@mcpkit/jsonrpc-core';
import type { ModernProtocolVersion } from '@mcpkit/protocol';

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
