import type { JsonRpcRequest, JsonRpcResponse } from '@mcpkit/jsonrpc-core';
import { LATEST_PROTOCOL_VERSION, methodAvailability, type ServerCapabilities } from '@mcpkit/protocol';
import type { ListenStream } from '../listen/listen-stream';
import { forMethod, type NamePattern } from '../middleware/filters';
import type { ServerMiddleware } from '../middleware/types';
import { RegistrationError } from '../registry/registry';
import type { ServerNotificationContext } from '../session/notification-context';
import type { ConnectOptions, NegotiatedSession, ServerSession } from '../session/session';
import type { HandleOptions } from './handle-options';
import type { ServerRequestHandler } from './handlers';

/**
 * Middleware of an extension that sees only the methods it names (requests and notifications): the extension's own
 * methods, or the core methods it takes part in (tasks: `tools/call`, `initialize`, `server/discover`). Everything
 * else passes it by.
 *
 * @example
 * const scoped: ScopedMiddleware = { methods: ['tools/call'], middleware: async (ctx, next) => next() };
 */
export interface ScopedMiddleware {
  /** The methods it sees: names, globs (`tasks/*`), or a predicate (see `NamePattern`). */
  methods: NamePattern;
  middleware: ServerMiddleware;
}

/** A middleware an extension installs: around every method, or scoped to the methods it names. */
export type ExtensionMiddleware = ServerMiddleware | ScopedMiddleware;

/**
 * The part of the `Server` an extension is handed at install: what it may do beyond its own methods. (Named here,
 * not imported, because `server.ts` imports this file; the `Server` class is what is passed.)
 */
export interface ExtensionServer {
  /** Runs one request through the era rules, the middleware and its handler, as the stateless path does. */
  handle(request: JsonRpcRequest, options?: HandleOptions): Promise<JsonRpcResponse | undefined>;
  /** Opens a stand-in session of a negotiated version (a task's detached run, a replay). */
  openSession(negotiated: NegotiatedSession, options?: ConnectOptions): ServerSession;
  /** Adds to what the server advertises. */
  registerCapabilities(capabilities: ServerCapabilities): void;
  /** The 2026-07-28 `subscriptions/listen` streams open now. */
  readonly listenStreams: ReadonlySet<ListenStream>;
}

/**
 * What an extension gets when it is installed: the server it extends (to register capabilities, run a request again
 * through the era rules and middleware with `server.handle`, open a stand-in session with `server.openSession`, read
 * `listenStreams`), and the object `extend` was called on (`host`: the `Server`, or the `McpToolServer` / `McpServer`
 * over it, whose registries an extension may read).
 */
export interface ServerExtensionContext<H = unknown> {
  readonly server: ExtensionServer;
  readonly host: H;
}

/**
 * An MCP extension (SEP-2133) registered on a server: advertised under `capabilities.extensions[id]` (in
 * `initialize` and `server/discover`), its methods routed on every path and in both eras, its middleware installed,
 * then `install` called with the server; what `install` returns is what `extend` returns (the extension's API).
 * `H` is what the extension needs to be installed on (`unknown`: any server; `McpToolServer`: one with tools).
 *
 * @example
 * server.extend({
 *   id: 'com.example/echo',
 *   declaration: { maxLength: 100 },
 *   methods: { 'com.example/echo': (params) => ({ echoed: params }) },
 * });
 *
 * // A packaged extension: a factory that returns one, with its API from `install`.
 * function counter(): ServerExtension<{ count(): number }> {
 *   let count = 0;
 *   return {
 *     id: 'com.example/counter',
 *     methods: { 'com.example/counter/bump': () => ({ count: ++count }) },
 *     middleware: { methods: 'com.example/counter/*', middleware: (ctx, next) => next() },
 *     install: () => ({ count: () => count }),
 *   };
 * }
 * const api = server.extend(counter());
 */
export interface ServerExtension<A = void, H = unknown> {
  /** The extension identifier: a `_meta`-style key with a mandatory prefix, such as `io.modelcontextprotocol/tasks`. */
  id: string;
  /** What it declares, advertised as `capabilities.extensions[id]`. Default `{}` (supported, no settings). */
  declaration?: Record<string, unknown>;
  /**
   * Request methods it answers, each typed with its own params. A method of the MCP core (other than this
   * extension's own) is refused.
   */
  methods?: ExtensionMethods;
  /** Notification methods it receives. */
  notifications?: Record<string, (params: unknown, ctx: ServerNotificationContext) => void | Promise<void>>;
  /** Middleware it installs (after the middleware already added); scope one to the methods it names with `methods`. */
  middleware?: ExtensionMiddleware | readonly ExtensionMiddleware[];
  /** Called once everything above is installed; its return value is what `extend` returns. */
  install?(context: ServerExtensionContext<H>): A;
}

/**
 * An extension's method table. Each handler declares its own params type (what it reads of the request's params;
 * the dispatcher has checked nothing of them), so no cast is needed to list handlers of different params.
 */
export type ExtensionMethods = Readonly<Record<string, ServerRequestHandler<never>>>;

/** The middleware layers of `extension`, each scoped as it asks. */
export function extensionLayers(middleware: ServerExtension<unknown, never>['middleware']): ServerMiddleware[] {
  if (middleware === undefined) return [];
  const entries: readonly ExtensionMiddleware[] =
    typeof middleware === 'function' || !Array.isArray(middleware)
      ? [middleware as ExtensionMiddleware]
      : (middleware as readonly ExtensionMiddleware[]);
  return entries.map((entry) => (typeof entry === 'function' ? entry : forMethod(entry.methods, entry.middleware)));
}

// An extension identifier is a `_meta`-style key whose prefix is mandatory: dot-separated labels (a letter first, then
// letters, digits and hyphens, not ending in a hyphen), "/", and a name (letters, digits, ".", "_" and "-", starting
// and ending with a letter or digit). Reserved prefixes are allowed: the spec's own extensions
// (io.modelcontextprotocol/tasks) are registered this way.
const LABEL = '[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const EXTENSION_ID = new RegExp(`^${LABEL}(?:\\.${LABEL})*/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`);

/**
 * Checks an extension before anything of it is installed: a well-formed id used once, and methods that clash with
 * nothing (the MCP core methods of the newest revision — except those the spec assigns to this very extension, like
 * `tasks/get` for `io.modelcontextprotocol/tasks` — and methods already registered).
 */
export function checkExtension(
  extension: ServerExtension<unknown, never>,
  registered: ReadonlyMap<string, unknown>,
  requestHandlers: ReadonlyMap<string, unknown>,
  notificationHandlers: ReadonlyMap<string, unknown>,
): void {
  const id = extension?.id;
  if (typeof id !== 'string' || !EXTENSION_ID.test(id)) {
    throw new RegistrationError(
      'ERR_INVALID_EXTENSION',
      `Server.extend: ${JSON.stringify(id)} is not an extension identifier: dot-separated labels (letters, digits, "-"), "/", then a name (letters, digits, ".", "_", "-"), like 'com.example/my-extension'`,
      { id },
    );
  }
  if (registered.has(id)) {
    throw new RegistrationError(
      'ERR_DUPLICATE_EXTENSION',
      `Server.extend: the extension '${id}' is already registered`,
      {
        id,
      },
    );
  }
  const clash = (method: string, what: string, why: string) =>
    new RegistrationError('ERR_METHOD_CLASH', `Server.extend: the extension '${id}' cannot register ${what}: ${why}`, {
      id,
      method,
    });
  const taken = 'a handler is already registered for it';
  for (const method of Object.keys(extension.methods ?? {})) {
    const availability = methodAvailability(method, LATEST_PROTOCOL_VERSION);
    if (availability.available && availability.extension !== id) {
      throw clash(method, `'${method}'`, `it is a method of MCP ${LATEST_PROTOCOL_VERSION}`);
    }
    if (requestHandlers.has(method)) throw clash(method, `'${method}'`, taken);
  }
  for (const method of Object.keys(extension.notifications ?? {})) {
    if (notificationHandlers.has(method)) throw clash(method, `the notification '${method}'`, taken);
  }
}
