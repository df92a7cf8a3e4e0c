// How the official v2 server meets node:http here. The SDK's node adapter, @modelcontextprotocol/node, is not installed
// in this workspace; its `NodeStreamableHTTPServerTransport` is the SDK's web-standard transport behind
// @hono/node-server's `getRequestListener(…, { overrideGlobalObjects: false })`, so the bench does exactly that, with
// one listener for the whole server (the adapter builds one per request, which would only cost v2 more). The v1 SDK
// depends on @hono/node-server, so it is loaded from there.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

type GetRequestListener = (
  fetch: (request: Request) => Promise<Response>,
  options: { overrideGlobalObjects: boolean },
) => (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** A node:http listener that serves `fetch` through @hono/node-server. */
export async function honoNodeListener(
  fetch: (request: Request) => Promise<Response>,
): Promise<(req: IncomingMessage, res: ServerResponse) => Promise<void>> {
  const fromSdk = createRequire(createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/server/mcp.js'));
  const module = (await import(pathToFileURL(fromSdk.resolve('@hono/node-server')).href)) as {
    getRequestListener: GetRequestListener;
  };
  return module.getRequestListener(fetch, { overrideGlobalObjects: false });
}
