import type { UnsupportedProtocolVersionErrorData } from './types/errors.js';

/**
 * Every protocol revision this package knows, oldest first. Versions are `YYYY-MM-DD` strings, so string order is
 * release order.
 */
export const PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

/** A protocol revision this package knows. */
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/** The newest revision: 2026-07-28. */
export const LATEST_PROTOCOL_VERSION = '2026-07-28' satisfies ProtocolVersion;

/**
 * Revisions of the legacy era, oldest first: `initialize` handshake, sessions, server→client requests.
 */
export const LEGACY_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

/** A legacy-era revision. */
export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/** The newest legacy revision, which a server answers `initialize` with when it cannot match the client. */
export const LATEST_LEGACY_PROTOCOL_VERSION = '2025-11-25' satisfies LegacyProtocolVersion;

/**
 * Revisions of the modern era, oldest first: stateless, per-request `_meta` envelope, `server/discover`.
 */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** A modern-era revision. */
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

const known: ReadonlySet<string> = new Set(PROTOCOL_VERSIONS);
const legacy: ReadonlySet<string> = new Set(LEGACY_PROTOCOL_VERSIONS);
const modern: ReadonlySet<string> = new Set(MODERN_PROTOCOL_VERSIONS);

/**
 * Whether `version` is a revision this package knows.
 *
 * @example
 * ```ts
 * isSupportedVersion('2025-06-18'); // true
 * isSupportedVersion('1900-01-01'); // false
 * ```
 */
export function isSupportedVersion(version: unknown): version is ProtocolVersion {
  return typeof version === 'string' && known.has(version);
}

/**
 * Whether `version` is a known legacy-era revision (2024-11-05 … 2025-11-25).
 *
 * @example
 * ```ts
 * isLegacyVersion('2025-11-25'); // true
 * ```
 */
export function isLegacyVersion(version: unknown): version is LegacyProtocolVersion {
  return typeof version === 'string' && legacy.has(version);
}

/**
 * Whether `version` is a known modern-era revision (2026-07-28 and later known ones). Unknown future dates are not
 * modern here: a peer must not guess the rules of a revision it does not implement.
 *
 * @example
 * ```ts
 * isModernVersion('2026-07-28'); // true
 * ```
 */
export function isModernVersion(version: unknown): version is ModernProtocolVersion {
  return typeof version === 'string' && modern.has(version);
}

/**
 * Compares two revision strings by release date: negative if `a` is older, 0 if equal, positive if newer.
 *
 * @example
 * ```ts
 * ['2026-07-28', '2024-11-05'].sort(compareVersions); // ['2024-11-05', '2026-07-28']
 * ```
 */
export function compareVersions(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function newest<V extends string>(versions: Iterable<V>, accept: (version: V) => boolean): V | undefined {
  let best: V | undefined;
  for (const version of versions) {
    if (accept(version) && (best === undefined || version > best)) best = version;
  }
  return best;
}

/**
 * Server side of the legacy `initialize` negotiation: answer with the requested version if the server supports it,
 * otherwise with the newest legacy version it supports. `undefined` when the server supports no legacy version (a
 * modern-only server answers `initialize` with an error listing its versions).
 *
 * @param requested - `InitializeRequestParams.protocolVersion`.
 * @param supported - the server's versions (any era; only legacy ones count). Defaults to every legacy version.
 *
 * @example
 * ```ts
 * negotiateLegacyVersion('2025-03-26'); // '2025-03-26'
 * negotiateLegacyVersion('2099-01-01'); // '2025-11-25'
 * negotiateLegacyVersion('2025-03-26', ['2025-06-18', '2025-11-25']); // '2025-11-25'
 * ```
 */
export function negotiateLegacyVersion(
  requested: string,
  supported: readonly string[] = LEGACY_PROTOCOL_VERSIONS,
): LegacyProtocolVersion | undefined {
  if (isLegacyVersion(requested) && supported.includes(requested)) return requested;
  return newest(supported, isLegacyVersion) as LegacyProtocolVersion | undefined;
}

/** The client's verdict on the version a server answered `initialize` with. */
export type LegacyVersionCheck =
  | { ok: true; version: LegacyProtocolVersion }
  | { ok: false; reason: string; received: unknown; supported: readonly string[] };

/**
 * Client side of the legacy negotiation: accept the server's `InitializeResult.protocolVersion` only if the client
 * supports it as a legacy version; otherwise the client SHOULD disconnect.
 *
 * @example
 * ```ts
 * const check = checkNegotiatedLegacyVersion(result.protocolVersion, ['2025-06-18', '2025-11-25']);
 * if (!check.ok) throw new Error(check.reason);
 * ```
 */
export function checkNegotiatedLegacyVersion(
  serverVersion: unknown,
  clientSupported: readonly string[] = LEGACY_PROTOCOL_VERSIONS,
): LegacyVersionCheck {
  if (isLegacyVersion(serverVersion) && clientSupported.includes(serverVersion)) {
    return { ok: true, version: serverVersion };
  }
  const shown = typeof serverVersion === 'string' ? `'${serverVersion}'` : String(serverVersion);
  return {
    ok: false,
    reason: `The server chose protocol version ${shown}, which this client does not support as a legacy (initialize) version; supported: ${clientSupported.filter(isLegacyVersion).join(', ') || 'none'}.`,
    received: serverVersion,
    supported: clientSupported,
  };
}

/**
 * Modern version selection: the newest modern version both sides support, or `undefined` when there is none (the
 * client may then fall back to the legacy handshake with {@link selectMutualVersion}).
 *
 * @param serverSupported - `DiscoverResult.supportedVersions` or the `supported` list of a -32022 error.
 * @param clientSupported - the client's versions. Defaults to every modern version.
 *
 * @example
 * ```ts
 * selectModernVersion(['2026-07-28', '2025-11-25']); // '2026-07-28'
 * selectModernVersion(['2025-11-25']); // undefined
 * ```
 */
export function selectModernVersion(
  serverSupported: readonly string[],
  clientSupported: readonly string[] = MODERN_PROTOCOL_VERSIONS,
): ModernProtocolVersion | undefined {
  return newest(serverSupported, (v) => isModernVersion(v) && clientSupported.includes(v)) as
    | ModernProtocolVersion
    | undefined;
}

/**
 * The newest version of any era that both sides support, or `undefined`.
 *
 * @example
 * ```ts
 * selectMutualVersion(['2026-07-28', '2025-11-25'], ['2025-06-18', '2025-11-25']); // '2025-11-25'
 * ```
 */
export function selectMutualVersion(
  serverSupported: readonly string[],
  clientSupported: readonly string[] = PROTOCOL_VERSIONS,
): ProtocolVersion | undefined {
  return newest(serverSupported, (v) => isSupportedVersion(v) && clientSupported.includes(v)) as
    | ProtocolVersion
    | undefined;
}

/**
 * The `error.data` of an `UnsupportedProtocolVersionError` (-32022): what the server supports and what was asked.
 * `requested` is the raw value (stringified if it was not a string).
 *
 * @example
 * ```ts
 * unsupportedProtocolVersionData(['2026-07-28', '2025-11-25'], '1900-01-01');
 * // { supported: ['2026-07-28', '2025-11-25'], requested: '1900-01-01' }
 * ```
 */
export function unsupportedProtocolVersionData(
  supported: readonly string[],
  requested: unknown,
): UnsupportedProtocolVersionErrorData {
  return { supported: [...supported], requested: typeof requested === 'string' ? requested : String(requested) };
}

/**
 * Features whose presence depends on the revision. Each names the revision that added it and, if any, the one that
 * removed it.
 */
export const REVISION_FEATURES = {
  /** `initialize` / `notifications/initialized` handshake. */
  initialize: { since: '2024-11-05', removedIn: '2026-07-28' },
  /** `ping` request. */
  ping: { since: '2024-11-05', removedIn: '2026-07-28' },
  /** Protocol-level sessions (`Mcp-Session-Id` on Streamable HTTP). */
  sessions: { since: '2025-03-26', removedIn: '2026-07-28' },
  /** Server→client JSON-RPC requests (sampling, roots, elicitation, ping). */
  serverToClientRequests: { since: '2024-11-05', removedIn: '2026-07-28' },
  /** `logging/setLevel`. */
  loggingSetLevel: { since: '2024-11-05', removedIn: '2026-07-28' },
  /** `resources/subscribe` / `resources/unsubscribe`. */
  resourcesSubscribe: { since: '2024-11-05', removedIn: '2026-07-28' },
  /** `notifications/roots/list_changed` and `roots.listChanged`. */
  rootsListChanged: { since: '2024-11-05', removedIn: '2026-07-28' },
  /** JSON-RPC batches. */
  batching: { since: '2025-03-26', removedIn: '2025-06-18' },
  /** Streamable HTTP transport. */
  streamableHttp: { since: '2025-03-26' },
  /** `AudioContent`. */
  audioContent: { since: '2025-03-26' },
  /** `ToolAnnotations`. */
  toolAnnotations: { since: '2025-03-26' },
  /** Server capability `completions` gates `completion/complete`. */
  completionsCapability: { since: '2025-03-26' },
  /** `ProgressNotificationParams.message`. */
  progressMessage: { since: '2025-03-26' },
  /** `elicitation/create` (form). */
  elicitation: { since: '2025-06-18' },
  /** `Tool.outputSchema` / `CallToolResult.structuredContent`. */
  structuredToolOutput: { since: '2025-06-18' },
  /** `ResourceLink` content. */
  resourceLinks: { since: '2025-06-18' },
  /** `title` on `BaseMetadata`. */
  titles: { since: '2025-06-18' },
  /** `CompleteRequestParams.context`. */
  completionContext: { since: '2025-06-18' },
  /** `MCP-Protocol-Version` HTTP header. */
  protocolVersionHeader: { since: '2025-06-18' },
  /** `Icon`s and `Implementation.description` / `websiteUrl`. */
  icons: { since: '2025-11-25' },
  /** URL-mode elicitation (`elicitation.url`). */
  urlElicitation: { since: '2025-11-25' },
  /** `elicitationId` and `notifications/elicitation/complete`. */
  elicitationComplete: { since: '2025-11-25', removedIn: '2026-07-28' },
  /** `URLElicitationRequiredError` (-32042). */
  urlElicitationRequiredError: { since: '2025-11-25', removedIn: '2026-07-28' },
  /** Sampling with tools (`sampling.tools`, `ToolUseContent`, `ToolResultContent`). */
  samplingTools: { since: '2025-11-25' },
  /** `sampling.context` gates `includeContext` other than `"none"`. */
  samplingContextCapability: { since: '2025-11-25' },
  /** Core tasks (`tasks/*`, `notifications/tasks/status`, `tasks` capabilities, `Tool.execution`). */
  coreTasks: { since: '2025-11-25', removedIn: '2026-07-28' },
  /** SEP-986 tool-name guidance. */
  toolNameFormat: { since: '2025-11-25' },
  /** Resource not found as -32002 (2026-07-28 uses -32602). */
  resourceNotFoundCode32002: { since: '2024-11-05', removedIn: '2026-07-28' },
  /** Per-request `_meta` envelope (protocol version, client capabilities, client info, log level). */
  requestEnvelope: { since: '2026-07-28' },
  /** `server/discover`. */
  serverDiscover: { since: '2026-07-28' },
  /** Required `resultType` on results. */
  resultType: { since: '2026-07-28' },
  /** Multi round-trip requests (`InputRequiredResult`, `inputResponses`, `requestState`). */
  multiRoundTrip: { since: '2026-07-28' },
  /** `ttlMs` / `cacheScope` caching hints. */
  caching: { since: '2026-07-28' },
  /** `subscriptions/listen` and `notifications/subscriptions/acknowledged`. */
  subscriptionsListen: { since: '2026-07-28' },
  /** `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` HTTP headers; HeaderMismatch -32020. */
  standardHeaders: { since: '2026-07-28' },
  /** `extensions` in client and server capabilities. */
  extensionsCapability: { since: '2026-07-28' },
  /** Errors -32021 (missing client capability) and -32022 (unsupported version). */
  modernErrors: { since: '2026-07-28' },
} as const satisfies Record<string, { since: ProtocolVersion; removedIn?: ProtocolVersion }>;

/** A feature named in {@link REVISION_FEATURES}. */
export type RevisionFeature = keyof typeof REVISION_FEATURES;

/**
 * Whether revision `version` has `feature`. Unknown versions have no features.
 *
 * @example
 * ```ts
 * revisionHas('2025-03-26', 'batching'); // true
 * revisionHas('2025-06-18', 'batching'); // false
 * revisionHas('2026-07-28', 'initialize'); // false
 * ```
 */
export function revisionHas(version: string, feature: RevisionFeature): boolean {
  if (!known.has(version)) return false;
  const span: { since: string; removedIn?: string } = REVISION_FEATURES[feature];
  return version >= span.since && (span.removedIn === undefined || version < span.removedIn);
}
