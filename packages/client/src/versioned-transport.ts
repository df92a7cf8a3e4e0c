// The seam through which a transport learns the version the client negotiated, instead of tracking the era itself:
// the client decides the era (negotiation) and tells the transport once, before anything of the era is sent.
import type { Transport } from '@mcpkit/jsonrpc-core';

/**
 * A transport whose wire depends on the negotiated version (the Streamable HTTP client transport: its headers and
 * legacy session follow it). The client calls `setProtocolVersion` as soon as negotiation settles, before
 * `notifications/initialized`; the official SDKs' clients call the same method, so a transport implementing it works
 * with them too.
 *
 * @example
 * class MyTransport implements VersionedTransport {
 *   setProtocolVersion(version: string) { this.version = version; }
 *   // start, send, close, onmessage …
 * }
 */
export interface VersionedTransport extends Transport {
  setProtocolVersion(version: string): void;
}

/** Tells `transport` the negotiated version when it wants to know; does nothing for other transports. */
export function tellTransportVersion(transport: Transport, version: string): void {
  if ('setProtocolVersion' in transport && typeof transport.setProtocolVersion === 'function') {
    transport.setProtocolVersion(version);
  }
}
