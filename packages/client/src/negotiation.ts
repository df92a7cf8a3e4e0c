import { ConnectionClosedError, JsonRpcError, RequestAbortedError } from '@mcpkit/jsonrpc-core';
import {
  eraOfVersion,
  isModernEraErrorCode,
  isSupportedVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
} from '@mcpkit/protocol';
import type { SessionState } from './eras/client-era';
import type { Attempt, NegotiationContext } from './eras/handshake';
import { initialize } from './eras/legacy-handshake';
import {
  discoverModern,
  LATEST_MODERN_VERSION,
  ProbeAnsweredOtherwise,
  ProbeUnanswered,
} from './eras/modern-handshake';
import { McpClientError } from './errors';
import type { ConnectOptions, Era } from './options';

const DEFAULT_PROBE_TIMEOUT_MS = 5_000;
// The brands of @mcpkit/client/auth's AuthorizationError and OAuthError. Read by key rather than imported, so the root
// entry never loads the /auth subpath, and errors from another copy of the package are recognised too.
const AUTHORIZATION_BRANDS = [
  Symbol.for('@mcpkit/client/AuthorizationError'),
  Symbol.for('@mcpkit/client/OAuthError'),
] as const;
// Transports wrap what their fetch throws once or twice; the bound only guards against a cyclic cause chain.
const MAX_CAUSE_DEPTH = 8;

/** One era's handshake, as `negotiate` picks it: the version it asks for unless pinned, and what opens the session. */
interface EraHandshake {
  readonly latest: string;
  open(attempt: Attempt, version: string, pinned: boolean): Promise<SessionState>;
}

// Each era's handshake, by name: a pinned version or an explicit era picks one, once (`era: 'auto'` probes instead).
const HANDSHAKES: Readonly<Record<Era, EraHandshake>> = {
  legacy: {
    latest: LATEST_LEGACY_PROTOCOL_VERSION,
    open: (attempt, version) => initialize(attempt, version, { allowModernSwitch: false }),
  },
  modern: {
    latest: LATEST_MODERN_VERSION,
    open: (attempt, version, pinned) => discoverModern(attempt, version, { pinned }),
  },
};

/**
 * Settles the era and version over a connected peer, and opens the session with that era's object (each era's
 * handshake is in eras/). Pinned version: its era decides, no probe, no switching. An explicit era: its handshake with
 * its newest version. `era: 'auto'`: probe `server/discover` with the 2026-07-28 envelope; a `DiscoverResult` or a recognised 2026 error means
 * modern (after -32022 one retry with a mutual version, never a fallback); anything else, or no answer within
 * `probeTimeoutMs`, means legacy: `initialize` + `notifications/initialized`. The probe timeout counts from the first
 * message the server sends (or from the probe, if the server spoke before it): a server still starting says nothing,
 * and gets the connect timeout, so a slow start never changes the era. An authorization failure of the OAuth
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
  if (pinned !== undefined) return HANDSHAKES[eraOfPinned(pinned, era)].open(attempt, pinned, true);
  if (era !== 'auto') return HANDSHAKES[era].open(attempt, HANDSHAKES[era].latest, false);
  let probeError: unknown;
  try {
    const probe = { ...attempt, probeTimeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS };
    return await discoverModern(probe, LATEST_MODERN_VERSION, { pinned: false, probe: true });
  } catch (error) {
    if (!isLegacyProbeAnswer(error, attempt.signal)) throw error;
    probeError = error;
  }
  try {
    return await initialize(attempt, LATEST_LEGACY_PROTOCOL_VERSION, { allowModernSwitch: true });
  } catch (error) {
    throw bothAttemptsFailed(probeError, error, attempt.signal);
  }
}

/**
 * The probe got no answer from an MCP server (an HTTP 404, a network error, a timeout) and `initialize` failed too: the
 * error names both attempts, in order, so a wrong URL is not reported as a failed `initialize` alone. When the server
 * did answer the probe (a JSON-RPC error: a legacy server), or connecting was aborted, `initialize`'s error is enough.
 */
function bothAttemptsFailed(probeError: unknown, initializeError: unknown, signal: AbortSignal | undefined): unknown {
  const serverAnsweredProbe = JsonRpcError.is(probeError) || probeError instanceof ProbeAnsweredOtherwise;
  if (serverAnsweredProbe || signal?.aborted || McpClientError.is(initializeError)) return initializeError;
  return new McpClientError(
    'ERR_CONNECT_FAILED',
    `Client.connect: no MCP server answered. Tried, in order: server/discover (${LATEST_MODERN_VERSION}): ${describeFailure(probeError)}; then initialize (${LATEST_LEGACY_PROTOCOL_VERSION}): ${describeFailure(initializeError)}`,
    {
      attempts: [
        { method: 'server/discover', protocolVersion: LATEST_MODERN_VERSION, error: probeError },
        { method: 'initialize', protocolVersion: LATEST_LEGACY_PROTOCOL_VERSION, error: initializeError },
      ],
    },
    { cause: initializeError },
  );
}

function describeFailure(error: unknown): string {
  // The probe given up by its own clock: say why, not only that the request was aborted.
  const reason = RequestAbortedError.is(error) ? error.data.reason : undefined;
  if (reason instanceof ProbeUnanswered) return reason.message;
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return code === undefined ? error.message : `${error.message} (${String(code)})`;
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
  const pinnedEra = eraOfVersion(pinned);
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
