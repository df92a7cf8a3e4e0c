import type { McpToolServer } from '../mcp-server/tool-server';
import type { Server } from './server';

/**
 * The low-level `Server` of an `McpServer` / `McpToolServer`, or the `Server` itself. For transports that accept either:
 * it reads the shape, not `instanceof`, so it also works when two copies of this package are loaded (a bundled
 * transport and the app's own `@mcpkit/server`), where `instanceof` would fail.
 *
 * @example
 * export function createHandler(server: McpToolServer | Server) {
 *   const core = serverOf(server); // one Server, whatever was passed
 * }
 */
export function serverOf(server: McpToolServer | Server): Server {
  const inner = (server as { server?: unknown }).server;
  return typeof inner === 'object' && inner !== null && typeof (inner as Server).dispatch === 'function'
    ? (inner as Server)
    : (server as Server);
}
