import type { JsonRpcMessage } from '@mcpkit/jsonrpc-core';
import { buildRequestMeta, standardHeadersFor } from '@mcpkit/protocol';
import { McpServer } from '@mcpkit/server';
import { type Revision, wireSchema } from '@mcpkit/testkit';
import { createParser } from 'eventsource-parser';
import { z } from 'zod';
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from '../../src/index';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON loosely; wireSchema checks the shapes
export type Loose = any;

export const URL_ = 'http://127.0.0.1:3000/mcp';
export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';
export const ACCEPT = 'application/json, text/event-stream';

/** A server with the tools the tests drive. `gate` lets a test hold a tool until it says so. */
export function makeServer(): {
  server: McpServer;
  gates: Map<string, () => void>;
  handlerRef: { current?: StreamableHttpHandler };
  aborted: string[];
} {
  const server = new McpServer({ name: 'http-test', version: '1.0.0' }, { listChangedDebounceMs: 1 });
  const gates = new Map<string, () => void>();
  const handlerRef: { current?: StreamableHttpHandler } = {};
  const aborted: string[] = [];
  const wait = (key: string, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`gate ${key} never opened`)), 5_000);
      gates.set(key, () => {
        clearTimeout(timer);
        resolve();
      });
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        aborted.push(key);
        reject(signal.reason);
      });
    });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(
    'progress',
    { inputSchema: z.object({ steps: z.number().int().max(50) }) },
    async ({ steps }, ctx) => {
      for (let step = 1; step <= steps; step++) await ctx.progress(step, steps, `step ${step}`);
      return { content: [{ type: 'text', text: `done ${steps}` }] };
    },
  );
  server.registerTool('wait', { inputSchema: z.object({ key: z.string() }) }, async ({ key }, ctx) => {
    await ctx.progress(0, 1, 'waiting');
    await wait(key, ctx.signal);
    await ctx.progress(1, 1, 'released');
    return { content: [{ type: 'text', text: `released ${key}` }] };
  });
  server.registerTool('quiet-wait', { inputSchema: z.object({ key: z.string() }) }, async ({ key }, ctx) => {
    await wait(key, ctx.signal);
    return { content: [{ type: 'text', text: `released ${key}` }] };
  });
  server.registerTool('reconnect', { inputSchema: z.object({}) }, async (_args, ctx) => {
    await ctx.progress(1, 3, 'before close');
    handlerRef.current?.closeSseStream(ctx);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await ctx.progress(2, 3, 'after close');
    return { content: [{ type: 'text', text: 'survived' }] };
  });
  server.registerTool('ask', { inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return {
      content: [
        { type: 'text', text: `hello ${answer.action === 'accept' ? String(answer.content?.name) : 'nobody'}` },
      ],
    };
  });
  server.registerTool(
    'weather',
    {
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          days: { type: 'integer', 'x-mcp-header': 'Days' },
          detailed: { type: 'boolean', 'x-mcp-header': 'Detailed' },
        },
      },
    },
    (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
  );
  server.registerTool('whoami', { inputSchema: z.object({}) }, (_args, ctx) => ({
    content: [{ type: 'text', text: `${ctx.auth?.clientId ?? 'anonymous'} ${ctx.era}` }],
  }));
  return { server, gates, handlerRef, aborted };
}

export function handlerFor(options: StreamableHttpHandlerOptions = {}) {
  const made = makeServer();
  const handler = createStreamableHttpHandler(made.server, { keepAliveMs: 0, retryMs: 10, ...options });
  made.handlerRef.current = handler;
  return { ...made, handler };
}

let nextId = 1;
export function request(method: string, params: Record<string, unknown> = {}, id: number | string = nextId++) {
  return { jsonrpc: '2.0' as const, id, method, params };
}

export function modernRequest(method: string, params: Record<string, unknown> = {}, id: number | string = nextId++) {
  return request(
    method,
    { ...params, _meta: buildRequestMeta({ protocolVersion: MODERN, clientCapabilities: {} }) },
    id,
  );
}

/** A POST with the headers a well-behaved client sends (2026-07-28 standard headers for modern bodies). */
export function post(body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}): Request {
  const modern =
    typeof body === 'object' && body !== null && !Array.isArray(body) && (body as Loose).params?._meta !== undefined;
  const standard = Object.fromEntries(
    Object.entries(modern ? standardHeadersFor(body as Loose) : {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  return new Request(URL_, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, host: '127.0.0.1:3000', ...standard, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

export function get(headers: Record<string, string> = {}, method = 'GET'): Request {
  return new Request(URL_, { method, headers: { accept: 'text/event-stream', host: '127.0.0.1:3000', ...headers } });
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Reads SSE events from a response until `until` says stop, the stream ends, or `timeoutMs` passes. */
export async function readEvents(
  response: Response,
  options: {
    until?: (event: SseEvent, all: SseEvent[]) => boolean;
    timeoutMs?: number;
    retry?: (ms: number) => void;
  } = {},
): Promise<{ events: SseEvent[]; ended: boolean; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const events: SseEvent[] = [];
  let stop = false;
  const parser = createParser({
    onEvent: (event) => {
      if (stop) return;
      events.push({ id: event.id, event: event.event, data: event.data });
      if (options.until?.(events.at(-1)!, events)) stop = true;
    },
    onRetry: options.retry,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + (options.timeoutMs ?? 3_000);
  let ended = false;
  for (let guard = 0; guard < 10_000 && !stop; guard++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const chunk = await Promise.race([
      reader.read(),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), remaining);
      }),
    ]);
    clearTimeout(timer);
    if (chunk === 'timeout') break;
    if (chunk.done) {
      ended = true;
      break;
    }
    parser.feed(decoder.decode(chunk.value, { stream: true }));
  }
  return { events, ended, reader };
}

/** JSON-RPC messages of the events that carry data. */
export function messagesOf(events: SseEvent[]): Loose[] {
  // Only `message` events carry JSON-RPC (a resumed stream may also carry the gap event).
  return events
    .filter((event) => event.data !== '' && (event.event === undefined || event.event === 'message'))
    .map((event) => JSON.parse(event.data));
}

/** Validates server→client messages against the revision's official schema. */
export function assertWire(revision: Revision, messages: JsonRpcMessage[], requestMethod = 'tools/call'): void {
  const schema = wireSchema(revision);
  for (const message of messages) {
    const problems = schema.check(message, 'method' in message ? undefined : requestMethod);
    if (problems.length > 0) throw new Error(`wire violation in ${JSON.stringify(message)}: ${problems.join('; ')}`);
  }
}

/** Runs the legacy handshake and returns the session id. */
export async function initialize(
  handler: StreamableHttpHandler,
  headers: Record<string, string> = {},
  version = LEGACY,
) {
  const response = await handler.handle(
    post(
      request('initialize', {
        protocolVersion: version,
        capabilities: { elicitation: {} },
        clientInfo: { name: 't', version: '1' },
      }),
      headers,
    ),
  );
  const sessionId = response.headers.get('mcp-session-id');
  const body = response.headers.get('content-type')?.includes('event-stream')
    ? messagesOf((await readEvents(response)).events)[0]
    : await response.json();
  if (sessionId !== null) {
    await handler.handle(
      post(
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { 'mcp-session-id': sessionId, 'mcp-protocol-version': version, ...headers },
      ),
    );
  }
  return { sessionId, body, response };
}

/** Session headers for a legacy request. */
export function session(sessionId: string, version = LEGACY): Record<string, string> {
  return { 'mcp-session-id': sessionId, 'mcp-protocol-version': version };
}

/** Reads a reader to its end (bounded) and returns the JSON-RPC messages of its events. */
export async function drainMessages(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxChunks = 1_000,
): Promise<Loose[]> {
  const decoder = new TextDecoder();
  let text = '';
  for (let i = 0; i < maxChunks; i++) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  const messages: Loose[] = [];
  for (const block of text.split('\n\n')) {
    const data = block.split('\n').find((line) => line.startsWith('data: '));
    if (data !== undefined && data.length > 6) messages.push(JSON.parse(data.slice(6)));
  }
  return messages;
}
