import {
  isJsonRpcRequest,
  type JsonRpcMessage,
  parseMessage,
  serializeMessage,
  type Transport,
} from '@mcpkit/jsonrpc-core';
import { McpHeaders } from '@mcpkit/protocol';
import { bodyExcerpt, httpStatusError, StreamableHttpError } from './errors';
import type { HttpAnswer, HttpExchange } from './http-exchange';
import { buildHeaders, type HeadersOption } from './request-headers';
import { exchangeFor } from './runtime-exchange';
import { readSseStream } from './sse-reader';

/** Options of {@link SseClientTransport}. */
export interface SseClientTransportOptions {
  /**
   * The `fetch` to use (tests, proxies, custom agents). Default: on Node, `node:http` / `node:https` with their global
   * keep-alive agents (see the README); elsewhere the global `fetch`.
   */
  fetch?: typeof fetch;
  /** Extra headers for every request, e.g. `Authorization`; a function is called before each request. */
  headers?: HeadersOption;
  /** How long to wait for the server's `endpoint` event, in ms. Default 10 000. */
  endpointTimeoutMs?: number;
}

/**
 * The client side of the deprecated HTTP+SSE transport (MCP 2024-11-05): a GET opens an event stream whose first
 * `endpoint` event names the URL to POST messages to; the server's messages arrive as `message` events. Use it for
 * servers that only speak that transport; `StreamableHttpClientTransport` falls back to it by itself.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'app', version: '1.0.0' });
 * await client.connect(new SseClientTransport(new URL('http://127.0.0.1:3001/sse')), { era: 'legacy' });
 * ```
 */
export class SseClientTransport implements Transport {
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;

  readonly #url: URL;
  readonly #exchange: HttpExchange;
  readonly #headers: HeadersOption | undefined;
  readonly #endpointTimeoutMs: number;
  readonly #controller = new AbortController();
  #endpoint: URL | undefined;
  #protocolVersion: string | undefined;
  #initializeId: unknown;
  #started = false;
  #closed = false;

  constructor(url: string | URL, options: SseClientTransportOptions = {}) {
    this.#url = new URL(url);
    this.#exchange = exchangeFor(options.fetch);
    this.#headers = options.headers;
    this.#endpointTimeoutMs = options.endpointTimeoutMs ?? 10_000;
  }

  /** The URL messages are POSTed to, once the server announced it. */
  get endpoint(): URL | undefined {
    return this.#endpoint;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('SseClientTransport: start() was already called');
    this.#started = true;
    const url = this.#url.href;
    let response: HttpAnswer;
    try {
      const headers = await buildHeaders(this.#headers, { accept: 'text/event-stream' });
      response = await this.#exchange(this.#url, { method: 'GET', headers, signal: this.#controller.signal });
    } catch (error) {
      throw new StreamableHttpError('ERR_NETWORK', `GET ${url} failed: ${describe(error)}`, { url }, { cause: error });
    }
    if (!response.ok || !response.hasBody) {
      const body = await bodyExcerpt(response);
      throw new StreamableHttpError(
        'ERR_HTTP_STATUS',
        `GET ${url} answered HTTP ${response.status}; an HTTP+SSE server answers with an event stream`,
        { status: response.status, url, httpMethod: 'GET', body },
      );
    }
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const endpointKnown = new Promise<void>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    const timer = setTimeout(
      () =>
        reject(
          new StreamableHttpError(
            'ERR_SSE_ENDPOINT',
            `GET ${url} sent no 'endpoint' event within ${this.#endpointTimeoutMs} ms; is this an HTTP+SSE MCP endpoint?`,
            { url },
          ),
        ),
      this.#endpointTimeoutMs,
    );
    const reading = readSseStream(response, {
      onEvent: (event) => {
        if (event.event === 'endpoint') {
          if (this.#endpoint !== undefined) return;
          const endpoint = this.#resolveEndpoint(event.data);
          if (endpoint instanceof Error) reject(endpoint);
          else {
            this.#endpoint = endpoint;
            resolve();
          }
          return;
        }
        if (event.event !== undefined && event.event !== 'message') return;
        this.#deliver(event.data);
      },
    });
    reading.then(
      () =>
        this.#ended(new StreamableHttpError('ERR_STREAM_ENDED', `The server closed the SSE stream of ${url}`, { url })),
      (error: unknown) =>
        this.#ended(
          new StreamableHttpError(
            'ERR_STREAM_ENDED',
            `The SSE stream of ${url} failed: ${describe(error)}`,
            { url },
            {
              cause: error,
            },
          ),
        ),
    );
    reading.catch(() => {});
    try {
      await Promise.race([
        endpointKnown,
        reading.then(() =>
          Promise.reject(
            new StreamableHttpError('ERR_SSE_ENDPOINT', `GET ${url} ended before an 'endpoint' event`, { url }),
          ),
        ),
      ]);
    } catch (error) {
      this.#controller.abort();
      this.#closed = true;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async send(message: JsonRpcMessage): Promise<void> {
    const endpoint = this.#endpoint;
    if (this.#closed || endpoint === undefined) {
      throw new StreamableHttpError(
        'ERR_TRANSPORT_CLOSED',
        'SseClientTransport is not connected (closed, or start() not finished)',
      );
    }
    if (isJsonRpcRequest(message) && message.method === 'initialize') this.#initializeId = message.id;
    const method = 'method' in message ? message.method : undefined;
    let response: HttpAnswer;
    try {
      const headers = await buildHeaders(this.#headers, {
        'content-type': 'application/json',
        [McpHeaders.ProtocolVersion]: this.#protocolVersion,
      });
      response = await this.#exchange(endpoint, {
        method: 'POST',
        headers,
        body: serializeMessage(message),
        signal: this.#controller.signal,
      });
    } catch (error) {
      throw new StreamableHttpError(
        'ERR_NETWORK',
        `POST ${endpoint.href} failed: ${describe(error)}`,
        {
          url: endpoint.href,
          method,
        },
        { cause: error },
      );
    }
    if (!response.ok) {
      const what = isJsonRpcRequest(message) ? `${method} (id ${String(message.id)})` : (method ?? 'a response');
      throw httpStatusError(`POST ${endpoint.href} answered '${what}'`, response, await bodyExcerpt(response), {
        url: endpoint.href,
        httpMethod: 'POST',
        method,
      });
    }
    // The answer travels on the event stream; whatever the POST returns ("Accepted") is not a message.
    response.discard();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#controller.abort();
    this.onclose?.();
  }

  #resolveEndpoint(data: string): URL | Error {
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), this.#url);
    } catch {
      return new StreamableHttpError('ERR_SSE_ENDPOINT', `The 'endpoint' event holds no URL: ${JSON.stringify(data)}`, {
        url: this.#url.href,
      });
    }
    // Posting to another origin would send the user's headers (credentials) wherever the stream says.
    if (endpoint.origin !== this.#url.origin) {
      return new StreamableHttpError(
        'ERR_SSE_ENDPOINT',
        `The 'endpoint' event points to another origin (${endpoint.origin}) than the SSE stream (${this.#url.origin}); refused`,
        { url: this.#url.href },
      );
    }
    return endpoint;
  }

  #deliver(data: string): void {
    const parsed = parseMessage(data);
    if (!parsed.ok) {
      this.onerror?.(
        new StreamableHttpError(
          'ERR_INVALID_BODY',
          `An SSE event is not a JSON-RPC message: ${parsed.error.error.message}`,
          {
            url: this.#url.href,
            body: data.slice(0, 500),
          },
        ),
      );
      return;
    }
    const message = parsed.message;
    if (
      this.#initializeId !== undefined &&
      'id' in message &&
      message.id === this.#initializeId &&
      'result' in message
    ) {
      const version = (message.result as { protocolVersion?: unknown } | null)?.protocolVersion;
      if (typeof version === 'string') this.#protocolVersion = version;
      this.#initializeId = undefined;
    }
    this.onmessage?.(message);
  }

  #ended(reason: StreamableHttpError): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#controller.abort();
    // Before the endpoint is known, start() reports the failure; onclose is only for a channel that was open.
    if (this.#endpoint !== undefined) this.onclose?.(reason);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
