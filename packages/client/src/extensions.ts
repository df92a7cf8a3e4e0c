// `client.extend`: an extension is declared as `capabilities.extensions[id]`, its `resultTypes` handed to callers as
// they are, its middleware installed.
import type { MiddlewareChain } from '@mcpkit/jsonrpc-core';
import type { ClientCapabilities } from '@mcpkit/protocol';
import { McpClientError } from './errors';
import type { ClientContext, ClientExtension } from './middleware';

/** Registers `extension`; refused (`ERR_DUPLICATE_EXTENSION`) when its id is taken. */
export function addExtension(
  extension: ClientExtension<unknown, never>,
  registered: Map<string, ClientExtension<unknown, never>>,
  resultTypes: Set<string>,
  capabilities: ClientCapabilities,
  chain: MiddlewareChain<ClientContext, unknown>,
): void {
  if (registered.has(extension.id)) {
    throw new McpClientError('ERR_DUPLICATE_EXTENSION', `Client.extend: '${extension.id}' is already registered`, {
      id: extension.id,
    });
  }
  registered.set(extension.id, extension);
  const declared = capabilities as { extensions?: Record<string, unknown> };
  declared.extensions = { ...declared.extensions, [extension.id]: extension.declaration ?? extension.settings ?? {} };
  for (const type of extension.resultTypes ?? []) resultTypes.add(type);
  const middleware = extension.middleware;
  if (middleware !== undefined) {
    for (const layer of typeof middleware === 'function' ? [middleware] : middleware) chain.add(layer);
  }
}
