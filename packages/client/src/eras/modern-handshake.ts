// The 2026-07-28 handshake on the client side: `server/discover` with the era's `_meta` envelope, the retry after
// -32022, and the probe's own clock (what `negotiate` runs when it tries or picks the modern era).
import { JsonRpcError, type JsonRpcPeer, type RequestId } from '@mcpkit/jsonrpc-core';
import {
  type DiscoverResult,
  MODERN_PROTOCOL_VERSIONS,
  type ModernProtocolVersion,
  readUnsupportedProtocolVersionData,
  selectModernVersion,
} from '@mcpkit/protocol';
import { McpClientError } from '../errors';
import type { SessionState } from './client-era';
import { checkDiscoverResult } from './discover-result';
import type { Attempt } from './handshake';

/** The newest 2026-07-28-era version this client speaks: what it asks for unless pinned. */
export const LATEST_MODERN_VERSION: ModernProtocolVersion =
  MODERN_PROTOCOL_VERSIONS[MODERN_PROTOCOL_VERSIONS.length - 1]!;

/** Thrown inside the probe when the server answered `server/discover` with something else than a DiscoverResult. */
export class ProbeAnsweredOtherwise extends Error {
  override name = 'ProbeAnsweredOtherwise';
}

/**
 * The 2026-07-28 handshake: `server/discover` in `version` (a probe when `how.probe`), one retry with a mutual version
 * after -32022 unless the version is pinned; opens the session with the modern era object.
 */
export async function discoverModern(
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
    context.tellVersion(current);
    return context.eras.modern.open(current, discovered);
  }
}

/**
 * One `server/discover`; a probe is silenced, so its abort or timeout sends no cancellation. A probe waits up to the
 * connect timeout while the server has said nothing, and `probeTimeoutMs` once it has spoken: a compliant legacy
 * server answers an unknown method with an error, so only a server that is up but silent is judged by the clock.
 */
async function sendDiscover(attempt: Attempt, version: string, probe: boolean): Promise<unknown> {
  const { peer, cancellation, eras } = attempt.context;
  let id: RequestId | undefined;
  const probeTimeoutMs = probe ? attempt.probeTimeoutMs : undefined;
  const probeClock = probeTimeoutMs === undefined ? undefined : new ProbeClock(peer, probeTimeoutMs, attempt.signal);
  try {
    return await peer.request(
      'server/discover',
      { _meta: eras.modern.envelope(version) },
      {
        timeoutMs: attempt.timeoutMs,
        signal: probeClock?.signal ?? attempt.signal,
        onRequest: probe
          ? (request) => {
              id = request.id;
              cancellation.silence(id);
            }
          : undefined,
      },
    );
  } finally {
    probeClock?.stop();
    if (id !== undefined) cancellation.unsilence(id);
  }
}

/**
 * The probe's own deadline: armed at the server's first message (at once if it already sent one), it aborts the probe
 * `timeoutMs` later. Also follows the caller's signal, so one signal serves the request.
 */
class ProbeClock {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #stopListening: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(peer: JsonRpcPeer, timeoutMs: number, caller: AbortSignal | undefined) {
    this.#caller = caller;
    if (caller?.aborted) this.#controller.abort(caller.reason);
    else caller?.addEventListener('abort', this.#follow, { once: true });
    this.#stopListening = peer.onFirstMessage(() => {
      this.#timer = setTimeout(
        () =>
          this.#controller.abort(
            new ProbeUnanswered(`server/discover got no answer within ${timeoutMs} ms of the server's first message`),
          ),
        timeoutMs,
      );
    });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  stop(): void {
    this.#stopListening();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this.#follow);
  }

  readonly #follow = (): void => this.#controller.abort(this.#caller?.reason);
}

/** Why the probe was given up: the server spoke, but did not answer `server/discover` in `probeTimeoutMs`. */
export class ProbeUnanswered extends Error {
  override name = 'ProbeUnanswered';
}
