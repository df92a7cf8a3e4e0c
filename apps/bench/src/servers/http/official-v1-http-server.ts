// The HTTP bench server on the official v1 SDK (@modelcontextprotocol/sdk 1.x) with its node transport
// `StreamableHTTPServerTransport`, each mode as the SDK's README shows it. Stateful: a transport and an `McpServer` per
// session, in a map by session id. Stateless: a new server and transport per request, closed with the response. v1 does
// not speak 2026-07-28.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { installCpuReport } from '../cpu-report';
import { createOfficialV1Server } from '../official-v1-tools';
import { announce, httpMode } from './http-args';
import { listenNode } from './listen-node';

installCpuReport();
const mode = httpMode();
if (mode === 'modern') throw new Error('the official v1 SDK does not speak 2026-07-28');

function stateful(json: boolean): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  return async (req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = transports.get(sessionId);
      if (transport !== undefined) return transport.handleRequest(req, res);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: json,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
      onsessionclosed: (id) => {
        transports.delete(id);
      },
    });
    await createOfficialV1Server().connect(transport);
    await transport.handleRequest(req, res);
  };
}

async function stateless(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const server = createOfficialV1Server();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

announce(await listenNode(mode === 'stateless' ? stateless : stateful(mode === 'stateful-json')));
