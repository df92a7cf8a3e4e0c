import { ConnectionClosedError, JsonRpcError, type JsonRpcPeer, type RequestId } from '@mcpkit/jsonrpc-core';
import {
  type ClientCapabilities,
  checkNegotiatedLegacyVersion,
  clientCapabilitiesFor,
  type DiscoverResult,
  type Implementation,
  type InitializeResult,
  isModernEraErrorCode,
  isModernVersion,
  isSupportedVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  type ModernProtocolVersion,
  readUnsupportedProtocolVersionData,
  selectModernVersion,
} from '@mcpkit/protocol';
import type { CancellationPolicy } from './cancellation';
import type { SessionState } from './eras/client-era';
import { checkDiscoverResult } from './eras/discover-result';
import type { LegacyEra } from './eras/legacy-era';
import type { ModernEra } from './eras/modern-era';
import { McpClientError } from './errors';
import type { ConnectOptions, Era } from './options';

const DEFAULT_PROBE_TIMEOUT_MS = 5_000;
const LATEST_MODERN_VERSION: ModernProtocolVersion = MODERN_PROTOCOL_VERSIONS[MODERN_PROTOCOL_VERSIONS.length - 1]!;
// The brands of @mcpkit/client/auth's AuthorizationError and OAuthError. Read by key rather than imported, so the root
// entry never loads the /auth subpath, and errors from another copy of the package are recognised too.
const AUTHORIZATION_BRANDS = [
  Symbol.for('@mcpkit/client/AuthorizationError'),
  Symbol.for('@mcpkit/client/OAuthError'),
] as const;
// Transports wrap what their fetch throws once or twice; the bound only guards against a cyclic cause chain.
const MAX_CAUSE_DEPTH = 8;

/**
 * What negotiation needs from the client: a connected peer, who the client is, its era objects (the session opens
 * with the one negotiation settles on), and where results go.
 */
export interface NegotiationContext {
  readonly peer: JsonRpcPeer;
  readonly info: Implementation;
  readonly capabilities: ClientCapabilities;
  /** The client's era objects; the modern one also gives the probe its `_meta` envelope. */
  readonly eras: { readonly legacy: LegacyEra; readonly modern: ModernEra };
  /** Timeout of `initialize` / `server/discover` when `ConnectOptions.timeoutMs` is not set. */
  readonly defaultTimeoutMs: number;
  /** Silences the probe: a legacy server must not hear about a request it never knew. */
  readonly cancellation: CancellationPolicy;
  /** Receives the server's `DiscoverResult` (the client caches it). */
  readonly onDiscovered: (result: DiscoverResult) => void;
}

interface Attempt {
  readonly context: NegotiationContext;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * Settles the era and version over a connected peer, and opens the session with that era's object. Pinned version: its era decides, no probe, no switching. `era:
 * 'auto'`: probe `server/discover` with the 2026-07-28 envelope; a `DiscoverResult` or a recognised 2026 error means
 * modern (after -32022 one retry with a mutual version, never a fallback); anything else, or no answer within
 * `probeTimeoutMs`, means legacy: `initialize` + `notifications/initialized`. An authorization failure of the OAuth
 * `fetch` (in the error's `cause` chain) is thrown as it is: `initialize` would only authorize again and fail the same way.
 */
export async function negotiate(context: NegotiationContext, options: ConnectOptions): Promise<SessionState> {
  const era = options.era ?? 'auto';
  const pinned = options.protocolVersion;
  const attempt: Attempt = {
    context,
    timeoutMs: options.timeoutMs ?? context.defaultTimeoutMs,
    signal: options.signal,
  };
  if (pinned !== undefined) {
    const pinnedEra = eraOfPinned(pinned, era);
    return pinnedEra === 'modern'
      ? discoverModern(attempt, pinned, { pinned: true })
      : initialize(attempt, pinned, { allowModernSwitch: false });
  }
  if (era === 'legacy') return initialize(attempt, LATEST_LEGACY_PROTOCOL_VERSION, { allowModernSwitch: false });
  if (era === 'modern') return discoverModern(attempt, LATEST_MODERN_VERSION, { pinned: false });
  try {
    const probe = { ...attempt, timeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS };
    return await discoverModern(probe, LATEST_MODERN_VERSION, { pinned: false, probe: true });
  } catch (error) {
    if (!isLegacyProbeAnswer(error, attempt.signal)) throw error;
  }
  return initialize(attempt, LATEST_LEGACY_PROTOCOL_VERSION, { allowModernSwitch: true });
}

/** The era of a pinned version, refusing unknown versions and a version of the other era than the one asked for. */
function eraOfPinned(pinned: string, era: 'auto' | Era): Era {
  if (!isSupportedVersion(pinned)) {
    throw new McpClientError(
      'ERR_VERSION_NEGOTIATION',
      `Client.connect: unknown protocol version '${pinned}'; known: ${[...LEGACY_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS].join(', ')}`,
      { requested: pinned },
    );
  }
  const pinnedEra: Era = isModernVersion(pinned) ? 'modern' : 'legacy';
  if (era !== 'auto' && era !== pinnedEra) {
    throw new McpClientError(
      'ERR_VERSION_NEGOTIATION',
      `Client.connect: protocolVersion '${pinned}' belongs to the ${pinnedEra} era, but era '${era}' was requested`,
      { requested: pinned, era },
    );
  }
  return pinnedEra;
}

/**
 * Whether a failed probe means "legacy server": anything but a recognised 2026 error, a closed connection, an abort or
 * an authorization failure.
 */
function isLegacyProbeAnswer(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted || McpClientError.is(error) || ConnectionClosedError.is(error)) return false;
  if (isAuthorizationFailure(error)) return false;
  if (JsonRpcError.is(error)) return !isModernEraErrorCode(error.code);
  // A timeout, or a result that is not a DiscoverResult (reported as ProbeAnsweredOtherwise).
  return true;
}

/** Whether an `AuthorizationError` or `OAuthError` of the /auth subpath is the error or in its `cause` chain. */
function isAuthorizationFailure(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const branded = current as Record<symbol, unknown>;
    if (branded[AUTHORIZATION_BRANDS[0]] === true || branded[AUTHORIZATION_BRANDS[1]] === true) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Thrown inside the probe when the server answered `server/discover` with something else than a DiscoverResult. */
class ProbeAnsweredOtherwise extends Error {
  override name = 'ProbeAnsweredOtherwise';
}

async function discoverModern(
  attempt: Attempt,
  version: string,
  how: { pinned: boolean; probe?: boolean },
): Promise<SessionState> {
  const { context } = attempt;
  let current = version;
  for (let retry = 0; ; retry++) {
    let result: unknown;
    try {
      result = await sendDiscover(attempt, current, how.probe === true);
    } catch (error) {
      const unsupported = JsonRpcError.is(error) ? readUnsupportedProtocolVersionData(error) : undefined;
      if (unsupported === undefined) throw error;
      const next = how.pinned ? undefined : selectModernVersion(unsupported.supported);
      if (next === undefined || retry > 0) {
        throw new McpClientError(
          'ERR_VERSION_NEGOTIATION',
          `The server does not support protocol version '${current}' and shares no 2026-07-28-era version with this client; it supports: ${unsupported.supported.join(', ') || 'nothing listed'}`,
          { requested: current, supported: unsupported.supported, client: [...MODERN_PROTOCOL_VERSIONS] },
          { cause: error },
        );
      }
      current = next;
      continue;
    }
    // `current` is always a known modern version here: the caller's, or one selectModernVersion picked.
    const verdict = checkDiscoverResult(current as ModernProtocolVersion, result);
    if (!verdict.ok) {
      // Only the probe may meet a non-modern server; an explicit modern connection reports the bad answer.
      if (how.probe) throw new ProbeAnsweredOtherwise();
      throw new McpClientError(
        'ERR_INVALID_RESULT',
        'server/discover answered with something that is not a DiscoverResult',
        { result, issues: verdict.issues },
      );
    }
    const discovered = result as DiscoverResult;
    if (!discovered.supportedVersions.includes(current)) {
      const next = how.pinned ? undefined : selectModernVersion(discovered.supportedVersions);
      if (next === undefined) {
        throw new McpClientError(
          'ERR_VERSION_NEGOTIATION',
          `The server supports ${discovered.supportedVersions.join(', ') || 'no versions'}, none of which this client speaks as requested ('${current}')`,
          { requested: current, supported: discovered.supportedVersions },
        );
      }
      current = next;
    }
    context.onDiscovered(discovered);
    return context.eras.modern.open(current, discovered);
  }
}

/** One `server/discover`; a probe is silenced, so its abort or timeout sends no cancellation. */
async function sendDiscover(attempt: Attempt, version: string, probe: boolean): Promise<unknown> {
  const { peer, cancellation, eras } = attempt.context;
  let id: RequestId | undefined;
  try {
    return await peer.request(
      'server/discover',
      { _meta: eras.modern.envelope(version) },
      {
        timeoutMs: attempt.timeoutMs,
        signal: attempt.signal,
        onRequest: probe
          ? (request) => {
              id = request.id;
              cancellation.silence(id);
            }
          : undefined,
      },
    );
  } finally {
    if (id !== undefined) cancellation.unsilence(id);
  }
}

async function initialize(
  attempt: Attempt,
  version: string,
  how: { allowModernSwitch: boolean },
): Promise<SessionState> {
  const { peer, capabilities, info, eras } = attempt.context;
  let result: InitializeResult;
  try {
    result = await peer.request<InitializeResult>(
      'initialize',
      // Only what this revision defines: pinned to 2025-03-26, the client must not claim elicitation.
      { protocolVersion: version, capabilities: clientCapabilitiesFor(version, capabilities), clientInfo: info },
      { timeoutMs: attempt.timeoutMs, signal: attempt.signal },
    );
  } catch (error) {
    // A modern-only server lists its versions in its answer to initialize: if a slow start made the probe time
    // out, this is where we learn the server is modern after all.
    const unsupported = JsonRpcError.is(error) ? readUnsupportedProtocolVersionData(error) : undefined;
    const modern = unsupported && how.allowModernSwitch ? selectModernVersion(unsupported.supported) : undefined;
    if (modern === undefined) throw error;
    return discoverModern(attempt, modern, { pinned: false });
  }
  const check = checkNegotiatedLegacyVersion(result?.protocolVersion);
  if (!check.ok) {
    throw new McpClientError('ERR_VERSION_NEGOTIATION', check.reason, {
      received: check.received,
      supported: check.supported,
    });
  }
  await peer.notify('notifications/initialized');
  return eras.legacy.open(check.version, result);
}
