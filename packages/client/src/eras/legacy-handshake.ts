// The 2024-11-05 … 2025-11-25 handshake on the client side: `initialize` and `notifications/initialized` (what
// `negotiate` runs when it picks the legacy era, or after the probe said the server is not modern).
import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import {
  checkNegotiatedLegacyVersion,
  clientCapabilitiesFor,
  type InitializeResult,
  readUnsupportedProtocolVersionData,
  selectModernVersion,
} from '@mcpkit/protocol';
import { McpClientError } from '../errors';
import type { SessionState } from './client-era';
import type { Attempt } from './handshake';
import { discoverModern } from './modern-handshake';

/**
 * The 2024-11-05 … 2025-11-25 handshake: `initialize` in `version`, the negotiated version checked, then
 * `notifications/initialized`; opens the session with the legacy era object. With `allowModernSwitch` (after the probe
 * failed), a modern-only server's refusal listing its versions switches to the 2026-07-28 handshake.
 */
export async function initialize(
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
  attempt.context.tellVersion(check.version);
  await peer.notify('notifications/initialized');
  return eras.legacy.open(check.version, result);
}
