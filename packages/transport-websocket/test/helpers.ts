import { Client } from '@mcpkit/client';
import { McpServer } from '@mcpkit/server';
import { afterEach } from 'vitest';
import { type ClientOptions, WebSocket } from 'ws';
import {
  WebSocketClientTransport,
  type WebSocketClientTransportOptions,
  type WebSocketConstructor,
} from '../src/index';
import { createWebSocketServer, type McpWebSocketServer, type WebSocketServerOptions } from '../src/node/index';

const textInput = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const;
const emptyInput = { type: 'object', properties: {} } as const;

// What the tests of the current file opened and not yet closed. Each test file gets its own copy of this module.
const openClients = new Set<Client>();
const openServers = new Set<McpWebSocketServer>();

/**
 * Closes, after each test of the file, every client and server it opened through these helpers or handed to
 * {@link closeAfterTest}: clients first (they end their sessions over open sockets), then servers. A server a test
 * already closed is closed again, which is harmless. Call once at the top of a test file.
 */
export function closeAfterEach(): void {
  afterEach(async () => {
    const clients = [...openClients];
    const servers = [...openServers];
    openClients.clear();
    openServers.clear();
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await Promise.all(servers.map((server) => server.close()));
  });
}

/** Registers a client or server made without these helpers, to be closed after the test; returns it. */
export function closeAfterTest<T extends Client | McpWebSocketServer>(opened: T): T {
  if (opened instanceof Client) openClients.add(opened);
  else openServers.add(opened as McpWebSocketServer);
  return opened;
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Hooks a test uses to watch and steer the tools. */
export interface ToolProbe {
  calls: number;
  /** Resolves `wait` calls. */
  release: () => void;
  /** Set when `ask` started waiting for the client, and what its elicit rejected with. */
  askStarted: Deferred<void>;
  askError: Deferred<unknown>;
  waitStarted: Deferred<void>;
}

export function makeMcpServer(bigBytes = 0): { mcp: McpServer; probe: ToolProbe } {
  const mcp = new McpServer({ name: 'ws-test', version: '1.0.0' });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const probe: ToolProbe = {
    calls: 0,
    release,
    askStarted: deferred(),
    askError: deferred(),
    waitStarted: deferred(),
  };
  mcp.registerTool('echo', { inputSchema: textInput }, ({ text }) => {
    probe.calls += 1;
    return { content: [{ type: 'text', text }] };
  });
  mcp.registerTool('big', { inputSchema: emptyInput }, () => {
    probe.calls += 1;
    return { content: [{ type: 'text', text: 'x'.repeat(bigBytes) }] };
  });
  mcp.registerTool('whoami', { inputSchema: emptyInput }, (_args, ctx) => ({
    content: [{ type: 'text', text: `${ctx.auth?.clientId ?? 'anonymous'} ${ctx.info.request?.url ?? ''}` }],
  }));
  mcp.registerTool('wait', { inputSchema: emptyInput }, async () => {
    probe.waitStarted.resolve();
    await released;
    return { content: [{ type: 'text', text: 'released' }] };
  });
  mcp.registerTool('ask', { inputSchema: emptyInput }, async (_args, ctx) => {
    probe.askStarted.resolve();
    try {
      await ctx.elicit({ message: 'never answered', requestedSchema: { type: 'object', properties: {} } });
    } catch (error) {
      probe.askError.resolve(error);
      throw error;
    }
    return { content: [] };
  });
  return { mcp, probe };
}

export async function startServer(
  options: WebSocketServerOptions = {},
  bigBytes = 0,
): Promise<{ mcp: McpServer; probe: ToolProbe; endpoint: McpWebSocketServer }> {
  const { mcp, probe } = makeMcpServer(bigBytes);
  const endpoint = closeAfterTest(await createWebSocketServer(mcp, { host: '127.0.0.1', port: 0, ...options }));
  return { mcp, probe, endpoint };
}

/** A `ws` class whose instances are recorded, so a test can reach the raw socket under the transport. */
export function recordingWebSocket(): { WebSocket: WebSocketConstructor; sockets: WebSocket[] } {
  const sockets: WebSocket[] = [];
  class Recording extends WebSocket {
    constructor(url: string, protocols?: string | string[], options?: ClientOptions) {
      super(url, protocols, options);
      sockets.push(this);
    }
  }
  return { WebSocket: Recording, sockets };
}

export function clientTransport(url: string, options: WebSocketClientTransportOptions = {}): WebSocketClientTransport {
  return new WebSocketClientTransport(url, { WebSocket, ...options });
}

export async function connectClient(
  url: string,
  era: 'modern' | 'legacy' | 'auto' = 'auto',
  options: WebSocketClientTransportOptions = {},
  handlers: ConstructorParameters<typeof Client>[1] = {},
): Promise<Client> {
  const client = closeAfterTest(new Client({ name: 'ws-test-client', version: '1.0.0' }, handlers));
  await client.connect(clientTransport(url, options), { era });
  return client;
}

/** Opens a raw `ws` socket and resolves when open, or rejects with the HTTP status of a refused upgrade. */
export function rawSocket(
  url: string,
  protocols: string[] = ['mcp'],
  options: ConstructorParameters<typeof WebSocket>[2] = {},
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols, options);
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () =>
        reject(Object.assign(new Error(`HTTP ${response.statusCode}`), { status: response.statusCode, body })),
      );
    });
    socket.once('error', reject);
  });
}

/** The next text frame on a raw socket, parsed. */
export function nextMessage(socket: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
}

export function closeEvent(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
}

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
};
