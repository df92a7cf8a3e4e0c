import type { ConnectOptions } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import { WebSocketClientTransport, type WebSocketConstructor } from '@mcpkit/transport-websocket';
import { WebSocket as NodeWebSocket } from 'ws';
import type { UpstreamConnection } from '../mount-options';

/**
 * Where an upstream is: a command the gateway spawns (stdio), or a URL (`http:`/`https:`: Streamable HTTP;
 * `ws:`/`wss:`: WebSocket). Credentials are the upstream's own: an HTTP `fetch` from `@mcpkit/client/auth`
 * (`createOAuthFetch`) or `headers`; never the downstream's.
 */
export type UpstreamDescription = (
  | { command: string; args?: readonly string[]; env?: Record<string, string>; cwd?: string }
  | { url: string | URL; fetch?: typeof fetch; headers?: Record<string, string> }
) & {
  /** How the client connects (era, protocol version). */
  connect?: ConnectOptions;
};

/**
 * An `UpstreamConnection` for `gateway.mount` from a description; each (re)connection opens a fresh transport.
 *
 * @example
 * await gateway.mount('quick', upstream({ command: 'node', args: ['dist/server.js'] }));
 * await gateway.mount('everything', upstream({ url: 'http://127.0.0.1:3001/mcp', fetch: createOAuthFetch(oauth) }));
 * await gateway.mount('ws', upstream({ url: 'ws://127.0.0.1:3002/mcp', connect: { era: 'legacy' } }));
 */
export function upstream(description: UpstreamDescription): UpstreamConnection {
  const connect = description.connect;
  if ('command' in description) {
    const { command, args, env, cwd } = description;
    return { connect, transport: () => new StdioClientTransport({ command, args, env, cwd }) };
  }
  const url = new URL(description.url);
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    const { fetch, headers } = description;
    return { connect, transport: () => new StreamableHttpClientTransport(url, { fetch, headers }) };
  }
  if (url.protocol === 'ws:' || url.protocol === 'wss:') {
    // Node 20 has no global WebSocket; `ws` speaks the same API.
    const WebSocket =
      (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ??
      (NodeWebSocket as unknown as WebSocketConstructor);
    return {
      connect,
      transport: () => new WebSocketClientTransport(url, { WebSocket, headers: description.headers, reconnect: false }),
    };
  }
  throw new RangeError(`upstream: ${url.protocol} URLs are not supported; use http(s):, ws(s): or { command }`);
}
