import type { JsonRpcMessage } from '@mcpkit/jsonrpc-core';
import { onTestFinished } from 'vitest';
import { StreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from '../../src/index';
import { listen } from '../../src/node/index';

/** One request the scripted fetch received. */
export interface RecordedCall {
  method: string;
  url: string;
  headers: Headers;
  /** The parsed JSON body of a POST. */
  body: JsonRpcMessage | undefined;
  signal: AbortSignal | undefined;
}

export type Script = (call: RecordedCall, index: number) => Response | Promise<Response>;

/** A scripted `fetch`: it records every call and answers from its script; `answer` serves the script to a server. */
export type ScriptedFetch = typeof fetch & {
  calls: RecordedCall[];
  answer: (request: Request, signal: AbortSignal | undefined) => Promise<Response>;
};

/** A `fetch` that records every call and answers from `script`. */
export function scriptedFetch(script: Script): ScriptedFetch {
  const calls: RecordedCall[] = [];
  const answer = async (request: Request, signal: AbortSignal | undefined): Promise<Response> => {
    const text = request.method === 'POST' ? await request.text() : '';
    const call: RecordedCall = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: text === '' ? undefined : (JSON.parse(text) as JsonRpcMessage),
      signal,
    };
    calls.push(call);
    return script(call, calls.length - 1);
  };
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await answer(new Request(input, init), init?.signal ?? undefined);
    const signal = init?.signal;
    if (response.body === null || signal === undefined || signal === null) return response;
    // Like a real fetch: aborting the request errors the body being read (and cancels its source).
    const body = response.body.pipeThrough(new TransformStream(), { signal });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return Object.assign(fetchFn, { calls, answer }) as ScriptedFetch;
}

/**
 * How a scripted test reaches its script: the transport calls the scripted `fetch` itself, or, with no `fetch` option
 * (the default request path: node:http on Node), a real server on 127.0.0.1 serves the script over HTTP. Each call's
 * `signal` is then the server's: aborted when the client closes the connection.
 */
export const REQUEST_PATHS = ['fetch', 'node:http'] as const;
export type RequestPath = (typeof REQUEST_PATHS)[number];

/** A started transport on `path` answered by `scripted` (a server, closed when the test ends, for node:http). */
export async function transportOn(
  path: RequestPath,
  scripted: ScriptedFetch,
  options: Omit<StreamableHttpClientTransportOptions, 'fetch'> = {},
): Promise<StreamableHttpClientTransport> {
  if (path === 'fetch')
    return new StreamableHttpClientTransport('http://mcp.test/mcp', { ...options, fetch: scripted });
  const server = await listen(
    { handle: (request: Request) => scripted.answer(request, request.signal) },
    { port: 0, host: '127.0.0.1' },
  );
  onTestFinished(() => server.close());
  return new StreamableHttpClientTransport(server.url, options);
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(body), { status: 200, ...init, headers });
}

export function accepted(init: ResponseInit = {}): Response {
  return new Response(null, { status: 202, ...init });
}

/** One SSE event as text. */
export function event(data: unknown, fields: { id?: string; retry?: number; event?: string } = {}): string {
  let text = '';
  if (fields.event !== undefined) text += `event: ${fields.event}\n`;
  if (fields.id !== undefined) text += `id: ${fields.id}\n`;
  if (fields.retry !== undefined) text += `retry: ${fields.retry}\n`;
  return `${text}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** An SSE response the test writes to and ends; `closed` resolves when the client cancelled the body. */
export function sseStream(init: ResponseInit = {}) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let onCancel!: () => void;
  const cancelled = new Promise<void>((resolve) => {
    onCancel = resolve;
  });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      // A comment first, as servers send a priming event: over HTTP the headers leave with the first bytes.
      c.enqueue(encoder.encode(': open\n\n'));
    },
    cancel() {
      onCancel();
    },
  });
  const headers = new Headers(init.headers);
  headers.set('content-type', 'text/event-stream');
  return {
    response: new Response(body, { status: 200, ...init, headers }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
    cancelled,
  };
}

/** A complete SSE response holding `events`. */
export function sse(events: string[], init: ResponseInit = {}): Response {
  const stream = sseStream(init);
  for (const text of events) stream.write(text);
  stream.end();
  return stream.response;
}

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

export function modernRequest(id: number, method: string, params: Record<string, unknown> = {}): JsonRpcMessage {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } };
}

export const INITIALIZE: JsonRpcMessage = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

export function initializeResult(id: number | string, protocolVersion = '2025-06-18'): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id,
    result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } },
  };
}

/** Collects what the transport delivers. */
export function collect(transport: {
  onmessage?: (message: JsonRpcMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: (reason?: Error) => void;
}) {
  const messages: JsonRpcMessage[] = [];
  const errors: Error[] = [];
  const closes: Array<Error | undefined> = [];
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error);
  transport.onclose = (reason) => closes.push(reason);
  return { messages, errors, closes };
}

/** Waits until `predicate` holds (bounded: 2 s by default). */
export async function until(predicate: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
