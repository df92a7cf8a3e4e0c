import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';

// A small HTTP load balancer: round robin over the instances, no affinity (no cookie, no hashing of Mcp-Session-Id),
// so consecutive requests of one client land on different instances on purpose. Bodies are buffered (MCP bodies are
// small and bounded) so a request an instance refused to connect for can go to the next one; responses stream through
// (SSE included). It records which instance served what, and can cut a response stream mid-way, as a flaky network
// would.

/** One request the proxy forwarded. */
export interface Forwarded {
  /** Index of the instance that served it. */
  readonly upstream: number;
  readonly httpMethod: string;
  /** The JSON-RPC method of a POST (`response` for a client's answer), else `undefined`. */
  readonly rpc: string | undefined;
  readonly sessionId: string | undefined;
}

/** A cut the next matching SSE response gets: after this many events, the connection drops. */
export interface Cut {
  /** Which request to cut (default: the next SSE response). */
  match?: (forwarded: Forwarded) => boolean;
  afterEvents: number;
}

/** A running proxy. */
export interface RoundRobinProxy {
  readonly url: URL;
  readonly forwarded: Forwarded[];
  /** The instances in rotation; a test may replace one (a restarted instance) or mark it gone. */
  readonly upstreams: (string | undefined)[];
  /** Cuts the next SSE response that matches. */
  cutNext(cut: Cut): void;
  close(): Promise<void>;
}

const MAX_BODY = 4 * 1024 * 1024;

function rpcOf(body: Buffer): string | undefined {
  try {
    const message = JSON.parse(body.toString('utf8')) as { method?: unknown };
    return typeof message.method === 'string' ? message.method : 'response';
  } catch {
    return undefined;
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Starts the proxy on 127.0.0.1 (port 0: a free one) in front of `upstreams` (base URLs of the instances). */
export async function startRoundRobinProxy(upstreams: string[], port = 0): Promise<RoundRobinProxy> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const forwarded: Forwarded[] = [];
  const rotation: (string | undefined)[] = [...upstreams];
  const cuts: Cut[] = [];
  let next = 0;

  const forward = async (request: IncomingMessage, response: ServerResponse) => {
    const body = request.method === 'POST' ? await readBody(request) : Buffer.alloc(0);
    if (body === undefined) {
      response.writeHead(413).end();
      return;
    }
    const headers = { ...request.headers };
    delete headers.host;
    // Each instance is tried at most once; one that refuses the connection (stopped, killed) is skipped.
    for (let tries = 0; tries < rotation.length; tries++) {
      const index = next++ % rotation.length;
      const upstream = rotation[index];
      if (upstream === undefined) continue;
      const record: Forwarded = {
        upstream: index,
        httpMethod: request.method ?? 'GET',
        rpc: request.method === 'POST' ? rpcOf(body) : undefined,
        sessionId: request.headers['mcp-session-id'] as string | undefined,
      };
      const target = new URL(request.url ?? '/', upstream);
      const sent = await new Promise<boolean>((resolve) => {
        const outgoing = httpRequest(target, { method: request.method, headers, agent }, (incoming) => {
          forwarded.push(record);
          response.writeHead(incoming.statusCode ?? 502, incoming.headers);
          response.flushHeaders();
          const sse = String(incoming.headers['content-type']).startsWith('text/event-stream');
          const cutIndex = sse ? cuts.findIndex((cut) => cut.match?.(record) ?? true) : -1;
          const cut = cutIndex === -1 ? undefined : cuts.splice(cutIndex, 1)[0];
          let events = 0;
          incoming.on('data', (chunk: Buffer) => {
            if (cut === undefined || events >= cut.afterEvents) {
              response.write(chunk);
              return;
            }
            events += chunk.toString('utf8').split('\n\n').length - 1;
            if (events < cut.afterEvents) {
              response.write(chunk);
              return;
            }
            // The network drops once what came so far reached the client: both sides see the connection go.
            incoming.destroy();
            response.write(chunk, () => response.destroy());
          });
          incoming.on('end', () => response.end());
          incoming.on('error', () => response.destroy());
          resolve(true);
        });
        outgoing.on('error', (error: NodeJS.ErrnoException) => {
          // Refused before any answer: try the next instance. After an answer started, the client sees the cut.
          if (!response.headersSent && (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET')) resolve(false);
          else {
            response.destroy();
            resolve(true);
          }
        });
        response.on('close', () => outgoing.destroy());
        outgoing.end(body);
      });
      if (sent) return;
    }
    response.writeHead(502, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Bad Gateway: no instance answered' },
      }),
    );
  };

  const server = createServer((request, response) => {
    forward(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  return {
    url: new URL(`http://127.0.0.1:${bound}/mcp`),
    forwarded,
    upstreams: rotation,
    cutNext: (cut) => cuts.push(cut),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
