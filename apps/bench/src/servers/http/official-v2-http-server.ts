// The HTTP bench server on the official v2 SDK (@modelcontextprotocol/server 2.x), each mode the way the SDK documents
// it. Stateful: one `WebStandardStreamableHTTPServerTransport` and one `McpServer` per session, kept in a map by session
// id (v2 binds a server instance to one transport). Legacy stateless and 2026-07-28: `createMcpHandler(factory)`,
// whose legacy leg builds a fresh instance per request and whose modern leg answers `auto` (JSON here). Node glue: see
// hono-node-bridge.ts.
import { createMcpHandler, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { installCpuReport } from '../cpu-report';
import { createOfficialV2Server } from '../official-v2-tools';
import { honoNodeListener } from './hono-node-bridge';
import { announce, httpMode } from './http-args';
import { listenNode } from './listen-node';

installCpuReport();
const mode = httpMode();

function statefulFetch(json: boolean): (request: Request) => Promise<Response> {
  const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return async (request) => {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = transports.get(sessionId);
      if (transport !== undefined) return transport.handleRequest(request);
      return Response.json(
        { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null },
        { status: 404 },
      );
    }
    // No session id: an initialize opens a new session (the transport answers anything else with 400).
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: json,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
      onsessionclosed: (id) => {
        transports.delete(id);
      },
    });
    await createOfficialV2Server().connect(transport);
    return transport.handleRequest(request);
  };
}

const fetch =
  mode === 'stateful-json' || mode === 'stateful-sse'
    ? statefulFetch(mode === 'stateful-json')
    : createMcpHandler(createOfficialV2Server, { maxRequestBodySize: 64 * 1024 * 1024 }).fetch;
announce(await listenNode(await honoNodeListener(fetch)));
