// A hostile MCP server and authorization server on 127.0.0.1, reached by the names a remote deployment would have.
//
// The client under test believes it talks to https://mcp.hostile.test (a public name, so the loopback allowance for
// development does not apply); the test's `fetch` maps the *.hostile.test names to the hostile server and is the only
// way out of the process: any other host is recorded and refused without a connection, so a test can assert that
// 169.254.169.254 or a private address was never even attempted. A separate "internal service" listens on 127.0.0.1
// and counts what reaches it: the SSRF target.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const MCP_URL = 'https://mcp.hostile.test/mcp';
export const MCP_ORIGIN = 'https://mcp.hostile.test';
export const AS_ORIGIN = 'https://as.hostile.test';
const MAPPED = new Set(['mcp.hostile.test', 'as.hostile.test', 'evil.hostile.test']);

export type Route = (request: IncomingMessage, response: ServerResponse, body: string) => void;

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

export interface HostileWorld {
  /** Routes of the hostile server by `host + path` (e.g. `mcp.hostile.test/.well-known/...`). */
  routes: Map<string, Route>;
  /** Every request that reached the hostile server, as `host + path`. */
  served: string[];
  /** Every request that reached the internal service. */
  internalHits: string[];
  /** Every URL the client asked the test network for, reachable or not. */
  attempted: string[];
  /** The internal service, as a loopback URL the attacker names. */
  internalUrl: string;
  /** The `fetch` to give the OAuth client. */
  fetch: typeof fetch;
  close(): Promise<void>;
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** The MCP endpoint of a protected server: 401 with a challenge pointing at `resourceMetadata`. */
export function challenge(resourceMetadata: string): Route {
  return (_request, response) =>
    json(
      response,
      401,
      { error: 'unauthorized' },
      { 'www-authenticate': `Bearer resource_metadata="${resourceMetadata}"` },
    );
}

/** A JSON document. */
export function document(body: unknown): Route {
  return (_request, response) => json(response, 200, body);
}

/** Protected resource metadata that is honest about the resource and names `authorizationServers`. */
export function resourceMetadata(authorizationServers: string[]): Route {
  return document({ resource: MCP_URL, authorization_servers: authorizationServers });
}

/** Authorization server metadata for `AS_ORIGIN`, with `overrides`. */
export function authorizationServerMetadata(overrides: Record<string, unknown> = {}): Route {
  return document({
    issuer: AS_ORIGIN,
    authorization_endpoint: `${AS_ORIGIN}/authorize`,
    token_endpoint: `${AS_ORIGIN}/token`,
    registration_endpoint: `${AS_ORIGIN}/register`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'client_credentials'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
    ...overrides,
  });
}

export async function startHostileWorld(): Promise<HostileWorld> {
  const routes = new Map<string, Route>();
  const served: string[] = [];
  const internalHits: string[] = [];
  const attempted: string[] = [];
  const hostile = await listen((request, response) => {
    const key = `${request.headers['x-test-host']}${new URL(request.url ?? '/', 'http://x').pathname}`;
    served.push(key);
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const route = routes.get(key);
      if (route === undefined) json(response, 404, { error: 'not_found' });
      else route(request, response, body);
    });
  });
  const internal = await listen((request, response) => {
    internalHits.push(request.url ?? '/');
    json(response, 200, { secret: 'internal data an attacker wants' });
  });
  const hostilePort = portOf(hostile);
  const internalPort = portOf(internal);

  const testFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    attempted.push(url.href);
    if (url.hostname === '127.0.0.1' && url.port === String(internalPort)) return fetch(request);
    if (!MAPPED.has(url.hostname)) {
      throw new TypeError(`test network: ${url.href} is not reachable from this test (no connection was made)`);
    }
    const headers = new Headers(request.headers);
    headers.set('x-test-host', url.hostname);
    const mapped = `http://127.0.0.1:${hostilePort}${url.pathname}${url.search}`;
    return fetch(new Request(mapped, { ...toInit(request), headers }));
  };

  return {
    routes,
    served,
    internalHits,
    attempted,
    internalUrl: `http://127.0.0.1:${internalPort}`,
    fetch: testFetch,
    async close() {
      hostile.closeAllConnections();
      internal.closeAllConnections();
      await Promise.all([hostile, internal].map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

function toInit(request: Request): RequestInit {
  return {
    method: request.method,
    body: request.body,
    redirect: request.redirect,
    signal: request.signal,
    // Node's fetch needs this for a streamed body.
    ...(request.body !== null && { duplex: 'half' }),
  } as RequestInit;
}
