import { describe, expect, it } from 'vitest';
import {
  checkNegotiatedLegacyVersion,
  compareVersions,
  isLegacyVersion,
  isModernVersion,
  isSupportedVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  negotiateLegacyVersion,
  PROTOCOL_VERSIONS,
  revisionHas,
  selectModernVersion,
  selectMutualVersion,
  unsupportedProtocolVersionData,
} from './versions.js';

describe('version lists', () => {
  it('lists all five revisions in release order, split into the two eras', () => {
    expect(PROTOCOL_VERSIONS).toEqual(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);
    expect([...PROTOCOL_VERSIONS].sort(compareVersions)).toEqual([...PROTOCOL_VERSIONS]);
    expect(LATEST_PROTOCOL_VERSION).toBe('2026-07-28');
    expect(LATEST_LEGACY_PROTOCOL_VERSION).toBe('2025-11-25');
    expect([...LEGACY_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS]).toEqual([...PROTOCOL_VERSIONS]);
  });

  it('classifies versions', () => {
    for (const version of LEGACY_PROTOCOL_VERSIONS) {
      expect([isSupportedVersion(version), isLegacyVersion(version), isModernVersion(version)]).toEqual([
        true,
        true,
        false,
      ]);
    }
    expect([isSupportedVersion('2026-07-28'), isLegacyVersion('2026-07-28'), isModernVersion('2026-07-28')]).toEqual([
      true,
      false,
      true,
    ]);
    for (const unknown of ['1900-01-01', '2027-01-01', 'draft', '', 20260728, undefined, null]) {
      expect([isSupportedVersion(unknown), isLegacyVersion(unknown), isModernVersion(unknown)]).toEqual([
        false,
        false,
        false,
      ]);
    }
  });
});

describe('negotiateLegacyVersion (server side of initialize)', () => {
  it.each([
    ['2024-11-05', undefined, '2024-11-05'],
    ['2025-03-26', undefined, '2025-03-26'],
    ['2025-06-18', undefined, '2025-06-18'],
    ['2025-11-25', undefined, '2025-11-25'],
    ['2099-01-01', undefined, '2025-11-25'],
    ['nonsense', undefined, '2025-11-25'],
    ['2026-07-28', undefined, '2025-11-25'],
    ['2025-03-26', ['2025-06-18', '2025-11-25'], '2025-11-25'],
    ['2025-06-18', ['2024-11-05', '2025-06-18'], '2025-06-18'],
    ['2025-11-25', ['2026-07-28', '2025-03-26', '2024-11-05'], '2025-03-26'],
    ['2025-11-25', ['2026-07-28'], undefined],
  ] as const)('requested %s with supported %j → %s', (requested, supported, expected) => {
    expect(negotiateLegacyVersion(requested, supported)).toBe(expected);
  });
});

describe('checkNegotiatedLegacyVersion (client side of initialize)', () => {
  it('accepts a version the client supports', () => {
    expect(checkNegotiatedLegacyVersion('2025-06-18')).toEqual({ ok: true, version: '2025-06-18' });
    expect(checkNegotiatedLegacyVersion('2024-11-05', ['2024-11-05'])).toEqual({ ok: true, version: '2024-11-05' });
  });

  it.each([
    ['an unsupported legacy version', '2024-11-05', ['2025-06-18', '2025-11-25']],
    ['a modern version', '2026-07-28', [...LEGACY_PROTOCOL_VERSIONS, '2026-07-28']],
    ['an unknown version', '2030-01-01', LEGACY_PROTOCOL_VERSIONS],
    ['a non-string', 42, LEGACY_PROTOCOL_VERSIONS],
  ])('rejects %s', (_label, received, supported) => {
    const check = checkNegotiatedLegacyVersion(received, supported);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.received).toBe(received);
      expect(check.reason).toContain(String(received));
    }
  });
});

describe('modern version selection', () => {
  it.each([
    [['2026-07-28'], undefined, '2026-07-28'],
    [['2025-11-25', '2026-07-28'], undefined, '2026-07-28'],
    [['2025-11-25'], undefined, undefined],
    [['2026-07-28', '2027-01-01'], undefined, '2026-07-28'],
    [['2026-07-28'], ['2025-11-25'], undefined],
    [[], undefined, undefined],
  ] as const)('server %j, client %j → %s', (server, clientSupported, expected) => {
    expect(selectModernVersion(server, clientSupported)).toBe(expected);
  });

  it('selects the newest mutual version of any era', () => {
    expect(selectMutualVersion(['2026-07-28', '2025-11-25'], ['2025-06-18', '2025-11-25'])).toBe('2025-11-25');
    expect(selectMutualVersion(['2026-07-28', '2025-11-25'])).toBe('2026-07-28');
    expect(selectMutualVersion(['1900-01-01'])).toBeUndefined();
  });

  it('builds the -32022 data', () => {
    expect(unsupportedProtocolVersionData(['2026-07-28', '2025-11-25'], '1900-01-01')).toEqual({
      supported: ['2026-07-28', '2025-11-25'],
      requested: '1900-01-01',
    });
    expect(unsupportedProtocolVersionData(['2026-07-28'], 7)).toEqual({ supported: ['2026-07-28'], requested: '7' });
  });
});

describe('revisionHas', () => {
  it.each([
    ['2024-11-05', 'initialize', true],
    ['2025-11-25', 'initialize', true],
    ['2026-07-28', 'initialize', false],
    ['2024-11-05', 'batching', false],
    ['2025-03-26', 'batching', true],
    ['2025-06-18', 'batching', false],
    ['2024-11-05', 'audioContent', false],
    ['2025-03-26', 'audioContent', true],
    ['2025-03-26', 'elicitation', false],
    ['2025-06-18', 'elicitation', true],
    ['2025-06-18', 'urlElicitation', false],
    ['2025-11-25', 'urlElicitation', true],
    ['2026-07-28', 'urlElicitation', true],
    ['2025-11-25', 'elicitationComplete', true],
    ['2026-07-28', 'elicitationComplete', false],
    ['2025-11-25', 'coreTasks', true],
    ['2026-07-28', 'coreTasks', false],
    ['2025-11-25', 'requestEnvelope', false],
    ['2026-07-28', 'requestEnvelope', true],
    ['2026-07-28', 'resourceNotFoundCode32002', false],
    ['2025-11-25', 'resourceNotFoundCode32002', true],
    ['2099-01-01', 'streamableHttp', false],
  ] as const)('%s has %s: %s', (version, feature, expected) => {
    expect(revisionHas(version, feature)).toBe(expected);
  });
});
