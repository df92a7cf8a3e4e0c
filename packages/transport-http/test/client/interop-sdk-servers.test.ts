import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from '@mcpkit/client';
import { McpServer as SdkV1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpHandler, McpServer as SdkV2McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StreamableHttpClientTransport } from '../../src/index';
import { startServer } from './http-server';

// Our Client + StreamableHttpClientTransport against the official SDK servers over real HTTP on 127.0.0.1:
// @modelcontextprotocol/sdk 1.x (legacy era, sessions or stateless) and @modelcontextprotocol/server 2.x (2026-07-28).

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sdkV1Server(): SdkV1McpServer {
  const server = new SdkV1McpServer({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('echo', { description: 'Echo', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('steps', { description: 'Progress and logs' }, async (extra) => {
    const token = extra._meta?.progressToken;
    for (let step = 1; step <= 3; step++) {
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: step, total: 3 },
        });
      }
      await server.sendLoggingMessage({ level: 'info', data: `step ${step}` }, extra.sessionId);
      await sleep(5);
    }
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.registerTool('ask', { description: 'Elicits a name' }, async () => {
    const answer = await server.server.elicitInput({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
  });
  return server;
}

/** The SDK v1 stateful wiring: one transport (and server) per session, like its examples. */
async function sdkV1Stateful() {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const closedSessions: string[] = [];
  const server = await startServer(async (req, res, body) => {
    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    const parsed = body === '' ? undefined : JSON.parse(body);
    let transport = sessionId === undefined ? undefined : transports.get(sessionId);
    if (transport === undefined) {
      if (sessionId !== undefined) return void res.writeHead(404).end('Session not found');
      if (parsed?.method !== 'initialize') {
        res.writeHead(400, { 'content-type': 'application/json' });
        return void res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
            id: null,
          }),
        );
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
        onsessionclosed: (id) => {
          closedSessions.push(id);
          transports.delete(id);
        },
      });
      await sdkV1Server().connect(created);
      transport = created;
    }
    await transport.handleRequest(req as IncomingMessage & { auth?: undefined }, res, parsed);
  });
  return { ...server, transports, closedSessions };
}

/** Serves a fetch-style handler over node:http; closing the connection cancels the response body. */
function bridge(handle: (request: Request) => Promise<Response>) {
  return async (req: IncomingMessage, res: ServerResponse, body: string) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    // Like fetch-native runtimes: the request's signal aborts when the client goes away.
    const disconnected = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) disconnected.abort();
    });
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'POST' ? body : undefined,
      signal: disconnected.signal,
    });
    const response = await handle(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) return void res.end();
    const reader = response.body.getReader();
    res.on('close', () => {
      if (!res.writableFinished) reader.cancel().catch(() => {});
    });
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      res.write(value);
    }
    res.end();
  };
}

describe('interop: our client with the official SDK servers over HTTP', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('@modelcontextprotocol/sdk 1.x, sessions: legacy era, progress, logs, elicitation, DELETE on close', async () => {
    const server = await sdkV1Stateful();
    cleanup.push(server.close);
    const logs: unknown[] = [];
    const client = new Client(
      { name: 'mcpkit', version: '1.0.0' },
      {
        handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) },
        onLogMessage: (params) => logs.push(params.data),
      },
    );
    const transport = new StreamableHttpClientTransport(server.url);
    await client.connect(transport);
    expect(client.era).toBe('legacy');
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.transports.size).toBe(1);

    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'hi' }]);
    const progress: number[] = [];
    const steps = await client.callTool(
      { name: 'steps', arguments: {} },
      { onProgress: ({ progress: p }) => progress.push(p) },
    );
    expect(steps.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(progress).toEqual([1, 2, 3]);
    expect(logs).toEqual(['step 1', 'step 2', 'step 3']);
    const asked = await client.callTool({ name: 'ask', arguments: {} });
    expect(asked.content).toEqual([{ type: 'text', text: 'hello Ada' }]);

    const sessionId = transport.sessionId!;
    await client.close();
    expect(server.closedSessions).toEqual([sessionId]);
  });

  it('@modelcontextprotocol/sdk 1.x, sessions: a forgotten session surfaces as ERR_SESSION_EXPIRED and the client can reconnect', async () => {
    const server = await sdkV1Stateful();
    cleanup.push(server.close);
    const client = new Client({ name: 'mcpkit', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(server.url));
    await sleep(50); // the standalone GET stream is open
    server.transports.clear(); // the server restarted
    await expect(client.listTools()).rejects.toMatchObject({ code: 'ERR_SESSION_EXPIRED' });
    await client.close();
    await client.connect(new StreamableHttpClientTransport(server.url));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'steps', 'ask']);
    await client.close();
  });

  it('@modelcontextprotocol/sdk 1.x, sessions: reinitializeOnSessionExpired recovers by itself', async () => {
    const server = await sdkV1Stateful();
    cleanup.push(server.close);
    const client = new Client({ name: 'mcpkit', version: '1.0.0' });
    const transport = new StreamableHttpClientTransport(server.url, { reinitializeOnSessionExpired: true });
    await client.connect(transport);
    const first = transport.sessionId;
    await sleep(50);
    server.transports.clear();
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'again' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'again' }]);
    expect(transport.sessionId).not.toBe(first);
    await client.close();
  });

  it('@modelcontextprotocol/sdk 1.x, stateless (JSON responses)', async () => {
    const server = await startServer(async (req, res, body) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await sdkV1Server().connect(transport);
      await transport.handleRequest(req, res, body === '' ? undefined : JSON.parse(body));
    });
    cleanup.push(server.close);
    const client = new Client({ name: 'mcpkit', version: '1.0.0' });
    const transport = new StreamableHttpClientTransport(server.url);
    await client.connect(transport);
    expect(client.era).toBe('legacy');
    expect(transport.sessionId).toBeUndefined();
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'stateless' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'stateless' }]);
    await client.close();
  });

  it('@modelcontextprotocol/server 2.x: 2026-07-28 era with Mcp-* headers; aborting a call closes its stream (server sees cancellation)', async () => {
    const seenHeaders: string[] = [];
    let cancelled: (() => void) | undefined;
    const serverCancelled = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    const handler = createMcpHandler(() => {
      const server = new SdkV2McpServer({ name: 'sdk-v2', version: '2.0.0' });
      server.registerTool(
        'echo',
        { description: 'Echo', inputSchema: z.object({ text: z.string() }) },
        async ({ text }) => ({
          content: [{ type: 'text', text }],
        }),
      );
      server.registerTool('wait', { description: 'Waits until cancelled' }, async (ctx) => {
        await new Promise<void>((resolve) => {
          ctx.mcpReq.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        cancelled?.();
        return { content: [] };
      });
      return server;
    });
    cleanup.push(() => handler.close());
    const server = await startServer(
      bridge((request) => {
        seenHeaders.push(`${request.method} ${request.headers.get('mcp-method')} ${request.headers.get('mcp-name')}`);
        return handler.fetch(request);
      }),
    );
    cleanup.push(server.close);
    const client = new Client({ name: 'mcpkit', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(server.url));
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'modern' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'modern' }]);

    const controller = new AbortController();
    const waiting = client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
    await sleep(100);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'ERR_REQUEST_ABORTED' });
    await Promise.race([
      serverCancelled,
      sleep(3_000).then(() => Promise.reject(new Error('the server never saw the cancellation'))),
    ]);
    await client.close();
    expect(seenHeaders[0]).toBe('POST server/discover null');
    expect(seenHeaders).toContain('POST tools/call echo');
    expect(seenHeaders).toContain('POST tools/call wait');
    expect(seenHeaders.some((line) => line.includes('notifications/cancelled'))).toBe(false);
  });
});
