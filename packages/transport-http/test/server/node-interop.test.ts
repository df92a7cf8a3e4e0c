import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { standardHeadersFor } from '@mcpkit/protocol';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from '../../src/index';
import { type ListeningServer, listen } from '../../src/node/index';
import { type Loose, MODERN, makeServer, messagesOf, modernRequest, readEvents } from './harness';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((entry) => entry.close()));
});

async function serve(
  options: StreamableHttpHandlerOptions = {},
): Promise<Pick<ListeningServer, 'url' | 'close'> & ReturnType<typeof makeServer>> {
  const made = makeServer();
  const handler = createStreamableHttpHandler(made.server, { keepAliveMs: 0, retryMs: 10, ...options });
  made.handlerRef.current = handler;
  const server = await listen(handler, { port: 0 });
  running.push(server);
  return { ...made, url: server.url, close: () => server.close() };
}

describe('node adapter over real HTTP (127.0.0.1)', () => {
  it('binds 127.0.0.1 by default and serves only its path', async () => {
    const { url } = await serve();
    expect(url.hostname).toBe('127.0.0.1');
    const other = await fetch(new URL('/elsewhere', url));
    expect(other.status).toBe(404);
  });

  it('streams a 2026-07-28 call and cancels it when the client aborts the fetch', async () => {
    const { url, aborted, gates } = await serve();
    const body = modernRequest('tools/call', { name: 'wait', arguments: { key: 'http-cancel' } });
    (body.params._meta as Loose).progressToken = 'x';
    const controller = new AbortController();
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...standardHeadersFor(body),
      },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const { events } = await readEvents(response, { until: () => true });
    expect(messagesOf(events)[0].method).toBe('notifications/progress');
    controller.abort();
    for (let i = 0; i < 100 && !aborted.includes('http-cancel'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(aborted).toContain('http-cancel');
    gates.get('http-cancel')?.();
  });

  it('refuses a large body with 413 before reading it', async () => {
    const made = makeServer();
    const server = await listen(createStreamableHttpHandler(made.server), { port: 0, maxBodyBytes: 100 });
    running.push(server);
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ padding: 'x'.repeat(1000) }),
    });
    expect(response.status).toBe(413);
  });

  it('a 2026-07-28 header mismatch reaches the client as 400 -32020', async () => {
    const { url } = await serve();
    const body = modernRequest('tools/list');
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
      },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(-32020);
  });
});

describe('express adapter', () => {
  async function startFixture(mode: string): Promise<{ url: URL; stop(): Promise<void> }> {
    const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
    const script = fileURLToPath(new URL('./fixtures/express-app.ts', import.meta.url));
    const child = spawn(tsx, ['--conditions=@mcpkit/source', script, mode], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('express fixture did not start')), 15_000);
      child.stdout!.once('data', (chunk: Buffer) => {
        clearTimeout(timer);
        resolve(Number(chunk.toString().trim()));
      });
      child.once('exit', (code) => reject(new Error(`express fixture exited with ${code}`)));
    });
    return {
      url: new URL(`http://127.0.0.1:${port}/mcp`),
      stop: async () => {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.stdin!.end();
        await exited;
      },
    };
  }

  for (const mode of ['raw-body', 'parse-first']) {
    it(`serves the endpoint as middleware (${mode}), auth from req.auth`, async () => {
      const fixture = await startFixture(mode);
      running.push({ close: fixture.stop });
      const client = new ClientV1({ name: 'express-test', version: '1.0.0' });
      const transport = new TransportV1(fixture.url, { requestInit: { headers: { authorization: 'Bearer alice' } } });
      await client.connect(transport);
      const result = await client.callTool({ name: 'echo', arguments: { text: mode } });
      expect((result.content as Loose)[0].text).toBe(mode);
      // The session is bound to alice: another identity gets 404.
      const other = await fetch(fixture.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId!,
          authorization: 'Bearer bob',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(other.status).toBe(404);
      await client.close();
    }, 30_000);
  }
});

describe('interop with the official SDK HTTP clients', () => {
  for (const mode of ['sse', 'json'] as const) {
    it(`@modelcontextprotocol/sdk 1.x StreamableHTTPClientTransport (${mode})`, async () => {
      const { url, server } = await serve({ responseMode: mode });
      const client = new ClientV1({ name: 'v1', version: '1.0.0' });
      const transport = new TransportV1(url);
      await client.connect(transport);
      expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(client.getServerVersion()?.name).toBe('http-test');
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toContain('echo');
      const progress: number[] = [];
      const result = await client.callTool({ name: 'progress', arguments: { steps: 3 } }, undefined, {
        onprogress: (update) => progress.push(update.progress),
      });
      expect((result.content as Loose)[0].text).toBe('done 3');
      if (mode === 'sse') expect(progress).toEqual([1, 2, 3]);
      // list_changed reaches the client on its GET stream.
      const changed = new Promise<void>((resolve) => {
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve());
      });
      await new Promise((r) => setTimeout(r, 50)); // the client opens its GET stream after initialized
      server.registerTool('late-tool', {}, () => ({ content: [] }));
      await Promise.race([
        changed,
        new Promise((_, reject) => setTimeout(() => reject(new Error('no list_changed')), 3_000)),
      ]);
      await transport.terminateSession();
      await client.close();
    });
  }

  it('@modelcontextprotocol/sdk 1.x answers elicitation over the POST stream', async () => {
    const { url } = await serve();
    const client = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Grace' } }));
    await client.connect(new TransportV1(url));
    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect((result.content as Loose)[0].text).toBe('hello Grace');
    await client.close();
  });

  it('@modelcontextprotocol/sdk 1.x resumes after the server closes the stream mid-call (SSE polling)', async () => {
    const { url } = await serve();
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    await client.connect(
      new TransportV1(url, {
        reconnectionOptions: {
          initialReconnectionDelay: 10,
          maxReconnectionDelay: 50,
          reconnectionDelayGrowFactor: 1,
          maxRetries: 5,
        },
      }),
    );
    const progress: string[] = [];
    const result = await client.callTool({ name: 'reconnect', arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update.message ?? ''),
      timeout: 5_000,
    });
    expect((result.content as Loose)[0].text).toBe('survived');
    expect(progress).toEqual(['before close', 'after close']);
    await client.close();
  });

  it('@modelcontextprotocol/client 2.x (2025-11-25)', async () => {
    const { url } = await serve();
    const client = new ClientV2({ name: 'v2', version: '1.0.0' });
    const transport = new TransportV2(url);
    await client.connect(transport);
    expect(transport.sessionId).toBeDefined();
    const result = await client.callTool({ name: 'echo', arguments: { text: 'from v2' } });
    expect((result.content as Loose)[0].text).toBe('from v2');
    const prompts = await client.listTools();
    expect(prompts.tools.length).toBeGreaterThan(3);
    await transport.terminateSession();
    await client.close();
  });

  it('the official clients work against legacy stateless mode', async () => {
    const { url } = await serve({ sessions: false });
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    const transport = new TransportV1(url);
    await client.connect(transport);
    expect(transport.sessionId).toBeUndefined();
    const result = await client.callTool({ name: 'echo', arguments: { text: 'stateless' } });
    expect((result.content as Loose)[0].text).toBe('stateless');
    await client.close();
  });
});
