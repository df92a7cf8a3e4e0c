import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerRequestContext, ServerSession } from '@mcpkit/server';
import { createStreamableHttpHandler, withCors } from '@mcpkit/transport-http';
import { toNodeHandler } from '@mcpkit/transport-http/node';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import { createWebSocketServer } from '@mcpkit/transport-websocket/node';
import type { Command } from 'commander';
import { createForwardingServer } from '../bridge/forwarding-server';
import { Upstream } from '../bridge/upstream';
import { CliError } from '../exit-codes';
import { note } from '../io';
import { describeStreamError } from '../session';
import type { TalkContext } from './talk';

interface ServeOptions {
  port: string;
  host: string;
  path: string;
  ws?: boolean;
  shared?: boolean;
  cors?: string[];
  allowedHost?: string[];
  allowedOrigin?: string[];
  token?: string;
  tokenFile?: string;
  inheritEnv?: boolean;
  protocolVersion?: string;
}

/** `mcpkit serve`: a stdio server behind Streamable HTTP (both eras, sessions, resumability) and optionally WebSocket. */
export function registerServe(program: Command, context: TalkContext): void {
  program
    .command('serve')
    .description('Serve a stdio MCP server (its command after --) over Streamable HTTP, and WebSocket with --ws')
    .option('-p, --port <port>', 'the port (0 picks a free one)', '3000')
    .option('--host <host>', 'the interface to listen on (keep 127.0.0.1 unless you mean it)', '127.0.0.1')
    .option('--path <path>', 'the MCP endpoint', '/mcp')
    .option('--ws', 'also accept WebSocket connections on the same path')
    .option('--shared', 'one child for every session (default: one child per legacy session)')
    .option(
      '--cors <origin>',
      'allow this browser origin (repeat it; "*" for any); CORS is off without it',
      collect,
      [],
    )
    .option(
      '--allowed-host <host>',
      'accept this Host header too (DNS-rebinding protection allows local names only)',
      collect,
      [],
    )
    .option('--allowed-origin <origin>', 'accept requests from this Origin (repeat it)', collect, [])
    .option('--token <token>', 'require "Authorization: Bearer <token>" (also MCPKIT_SERVE_TOKEN)')
    .option('--token-file <path>', 'read the bearer token from this file')
    .action(async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals() as ServeOptions;
      context.exitCode = await serve(context, options);
    });
}

async function serve(context: TalkContext, options: ServeOptions): Promise<number> {
  const { io } = context;
  if (context.command.length === 0) {
    throw new CliError('usage', 'Give the stdio server to serve after --, e.g. mcpkit serve -- node server.mjs');
  }
  const [command, ...args] = context.command as [string, ...string[]];
  const token = bearerToken(options, io.env);
  const open = () => {
    const transport = new StdioClientTransport({ command, args, stderr: 'pipe', inheritEnv: options.inheritEnv });
    transport.stderr?.on('data', (chunk: Buffer) => io.stderr.write(chunk));
    return transport;
  };
  const events = {
    onError: (error: Error) => note(io, `mcpkit serve: ${describeStreamError(error)}`),
    onListChanged: (kind: 'tools' | 'prompts' | 'resources') => server.sendListChanged(kind),
    onResourceUpdated: (uri: string) => server.notifyResourceUpdated(uri),
    onLost: (reason: Error | undefined) =>
      note(
        io,
        `mcpkit serve: the server process ended${reason ? ` (${reason.message.split('\n', 1)[0]})` : ''}; it is restarted for the next request`,
      ),
  };
  const shared = new Upstream({ open, protocolVersion: options.protocolVersion, ...events });
  const first = await shared.client();
  const perSession = new Map<ServerSession, Upstream>();
  const server = createForwardingServer(
    {
      serverInfo: first.serverInfo ?? { name: command, version: '0.0.0' },
      capabilities: first.serverCapabilities ?? {},
      instructions: first.instructions,
    },
    (ctx: ServerRequestContext) => {
      if (options.shared || ctx.session === undefined) return shared;
      let upstream = perSession.get(ctx.session);
      if (upstream === undefined) {
        const session = ctx.session;
        upstream = new Upstream({
          open,
          protocolVersion: options.protocolVersion,
          ...events,
          // This child's lists are this session's alone: the other hosts have children of their own.
          onListChanged: (kind) => void session.notify(`notifications/${kind}/list_changed`).catch(() => {}),
        });
        perSession.set(ctx.session, upstream);
      }
      return upstream;
    },
    (extension) =>
      note(io, `mcpkit serve: the extension ${extension} is not crossed (the bridge does not know its methods)`),
  );
  // A session's child ends with its session.
  const sweep = setInterval(() => {
    for (const [session, upstream] of perSession) {
      if (!server.sessions.has(session)) {
        perSession.delete(session);
        void upstream.close();
      }
    }
  }, 2000);
  sweep.unref();

  const allowedHosts = options.allowedHost?.length ? [...options.allowedHost, ...LOCAL_HOSTS] : [...LOCAL_HOSTS];
  // Browser origins let in by the Origin checks of HTTP and WebSocket alike: --allowed-origin and the --cors ones.
  const origins = [...(options.allowedOrigin ?? []), ...(options.cors ?? []).filter((origin) => origin !== '*')];
  // `--cors '*'` lets any web page call. The transport's Origin list cannot say "any", so its checks are off and the
  // Host check (the DNS-rebinding protection proper) is made here instead; without it every browser got a 403.
  const anyOrigin = options.cors?.includes('*') === true;
  const mcp = createStreamableHttpHandler(server, {
    allowedHosts,
    allowedOrigins: origins.length > 0 ? origins : undefined,
    dnsRebindingProtection: !anyOrigin,
  });
  const handler = options.cors?.length ? withCors(mcp, { origin: anyOrigin ? '*' : options.cors }) : mcp;
  const nodeHandler = toNodeHandler(handler);
  const httpServer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/health' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, server: first.serverInfo, sessions: server.sessions.size }));
      return;
    }
    if (url.pathname !== options.path) {
      res.writeHead(404).end();
      return;
    }
    if (anyOrigin && !hostAllowed(req.headers.host ?? '', allowedHosts)) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32000,
            message: `Forbidden: Host '${req.headers.host}' is not allowed (DNS rebinding protection)`,
            data: { host: req.headers.host },
          },
        }),
      );
      return;
    }
    if (token !== undefined && !authorized(req, token) && req.method !== 'OPTIONS') {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcpkit serve"', 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'unauthorized', error_description: 'Send Authorization: Bearer <token>' }));
      return;
    }
    void nodeHandler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(Number(options.port), options.host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  let webSocket: Awaited<ReturnType<typeof createWebSocketServer>> | undefined;
  if (options.ws) {
    webSocket = await createWebSocketServer(server, {
      server: httpServer,
      path: options.path,
      allowedOrigins: origins.length > 0 ? origins : undefined,
      authenticate: (request) => (token === undefined || authorized(request, token) ? undefined : false),
    });
  }
  note(
    io,
    `mcpkit serve: http://${host}:${port}${options.path}${options.ws ? ` and ws://${host}:${port}${options.path}` : ''} (health: /health)`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  clearInterval(sweep);
  await webSocket?.close().catch(() => {});
  await mcp.close().catch(() => {});
  httpServer.closeAllConnections();
  httpServer.close();
  await Promise.all([shared.close(), ...[...perSession.values()].map((upstream) => upstream.close())]);
  return 0;
}

function bearerToken(options: ServeOptions, env: NodeJS.ProcessEnv): string | undefined {
  if (options.tokenFile) {
    try {
      return readFileSync(options.tokenFile, 'utf8').trim();
    } catch (error) {
      throw new CliError('usage', `Cannot read the token file ${options.tokenFile}: ${(error as Error).message}`);
    }
  }
  return options.token ?? env.MCPKIT_SERVE_TOKEN;
}

function authorized(request: IncomingMessage, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match) return false;
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** `host` or `host:port` against names (any port) and `name:port` entries, as the transport's own check reads them. */
function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const lower = host.toLowerCase();
  const name = lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : lower.split(':', 1)[0]!;
  return allowed.some((entry) => {
    const wanted = entry.toLowerCase();
    return wanted === lower || wanted === name;
  });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
