import { LATEST_PROTOCOL_VERSION, methodAvailability } from '@mcpkit/protocol';
import type { ServerRequestHandler } from './handlers';
import type { ServerMiddleware } from './middleware/types';
import type { ServerNotificationContext } from './notification-context';
import { RegistrationError } from './registry';

/**
 * An MCP extension (SEP-2133) registered on a server: advertised under `capabilities.extensions[id]` (in
 * `initialize` and `server/discover`), its methods routed on every path and in both eras, its middleware installed.
 *
 * @example
 * server.extend({
 *   id: 'com.example/echo',
 *   declaration: { maxLength: 100 },
 *   methods: { 'com.example/echo': (params) => ({ echoed: params }) },
 * });
 */
export interface ServerExtension {
  /** The extension identifier: a `_meta`-style key with a mandatory prefix, such as `io.modelcontextprotocol/tasks`. */
  id: string;
  /** Its settings, advertised as `capabilities.extensions[id]`. Default `{}` (supported, no settings). */
  declaration?: Record<string, unknown>;
  /** Request methods it answers. A method of the MCP core (other than this extension's own) is refused. */
  methods?: Record<string, ServerRequestHandler<never>>;
  /** Notification methods it receives. */
  notifications?: Record<string, (params: unknown, ctx: ServerNotificationContext) => void | Promise<void>>;
  /** Middleware it installs (after the middleware already added). */
  middleware?: ServerMiddleware | readonly ServerMiddleware[];
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
  extension: ServerExtension,
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
