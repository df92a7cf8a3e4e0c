// What a caller passes to `gateway.mount(…)` and reads back: how an owned upstream is opened and reconnected, what of
// it is exposed and under which names, and where a mount stands.
import type { ClientOptions, ConnectOptions } from '@mcpkit/client';
import type { Transport } from '@mcpkit/jsonrpc-core';
import type { Implementation } from '@mcpkit/protocol';
import type { ServerMiddleware } from '@mcpkit/server';
import type { TasksClient } from '@mcpkit/tasks';
import type { ItemFilter } from './filter';

/**
 * An upstream the gateway opens and owns: it calls `transport()` for every (re)connection, connects its own `Client`
 * and closes it with the mount. Each upstream authenticates with what its transport carries (for HTTP, a `fetch` from
 * `@mcpkit/client/auth`); nothing of the downstream's credentials is ever forwarded.
 *
 * @example
 * const upstream: UpstreamConnection = {
 *   transport: () => new StreamableHttpClientTransport(new URL('http://127.0.0.1:3000/mcp')),
 * };
 */
export interface UpstreamConnection {
  /** Opens a fresh transport to the upstream (called again on every reconnection). */
  transport: () => Transport | Promise<Transport>;
  /** How the client connects (`era`, `protocolVersion`, probe timeout). Default: probe, then fall back. */
  connect?: ConnectOptions;
}

/** How a mount reconnects an upstream it owns after a failure. */
export interface ReconnectPolicy {
  /** Delay before the first retry. Default 250 ms; it doubles after each failure. */
  initialDelayMs?: number;
  /** The longest delay between retries. Default 30 000 ms. */
  maxDelayMs?: number;
  /** Give up after this many failed attempts in a row. Default: never. */
  maxAttempts?: number;
}

/** Options of `gateway.mount(namespace, upstream, options)`. */
export interface MountOptions {
  /** Between the namespace and an upstream name. Default: the gateway's (`_`). */
  separator?: string;
  /** The prefix of this mount's resource URIs. Default `<namespace>+` (lower case, `_` → `-`); '' when unnamespaced. */
  uriPrefix?: string;
  /** Which upstream tools to expose (rules see upstream names). */
  tools?: ItemFilter;
  /** Which upstream prompts to expose. */
  prompts?: ItemFilter;
  /** Which upstream resources and resource templates to expose (rules see upstream URIs / URI templates). */
  resources?: ItemFilter;
  /** Downstream names chosen instead of `<namespace><separator><name>`, by upstream name. */
  rename?: { tools?: Record<string, string>; prompts?: Record<string, string> };
  /** Middleware that runs only for requests this mount answers (after the server's own). */
  use?: ServerMiddleware | readonly ServerMiddleware[];
  /** How an owned upstream reconnects; `false` to stay down. Default: backoff from 250 ms to 30 s, forever. */
  reconnect?: ReconnectPolicy | false;
  /** Options of the `Client` the gateway builds for an owned upstream (timeouts, warnings). */
  client?: Omit<ClientOptions, 'handlers' | 'capabilities' | 'onLogMessage' | 'cache'>;
  /** `clientInfo` the gateway presents upstream. Default `{ name: 'mcpkit-gateway', version: '0.0.0' }`. */
  clientInfo?: Implementation;
  /**
   * Extensions to cross, by id, each with the request methods it adds (e.g.
   * `{ 'io.modelcontextprotocol/skills': ['skills/list', 'skills/get', 'resources/directory/read'] }`). One the upstream
   * declares is advertised by the server with the upstream's declaration, and its methods are forwarded as they are
   * (names and URIs inside them are not rewritten: mount such an upstream unnamespaced). Default none.
   */
  extensions?: Record<string, readonly string[]>;
  /**
   * For an upstream given as a connected `Client`: the `TasksClient` installed on it (`client.extend(tasks())` from
   * `@mcpkit/tasks/client`, before it connected), so that its tasks cross. An upstream the gateway opens gets one of
   * its own. Without it, calls to a given Client cross inline.
   */
  tasksClient?: TasksClient;
}

/** Where a mount stands: `connecting` (first attempt), `up`, `down` (reconnecting, or given up), `closed`. */
export type MountStatus = 'connecting' | 'up' | 'down' | 'closed';
