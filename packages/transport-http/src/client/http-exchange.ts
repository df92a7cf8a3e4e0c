import type { AbortSource } from '@mcpkit/jsonrpc-core';
// The seam between the client transports and the HTTP stack below them. The transports speak MCP over this small
// interface; what carries the bytes is chosen once per transport (runtime-exchange.ts): the caller's `fetch`, Node's
// `node:http` keep-alive agents (no `Request`, `Response`, `Headers` or web streams per call), or the runtime's
// `fetch` anywhere else.

/** One HTTP request a client transport makes. */
export interface HttpRequestInit {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Header names in lower case; the transport's own already merged over the caller's. */
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Aborting it ends the request and errors a body being read (an `AbortSignal`, or a transport's `AbortLink`). */
  readonly signal: AbortSource;
}

/** The answer to one {@link HttpRequestInit}: status and headers at once, the body read in one of three ways. */
export interface HttpAnswer {
  readonly status: number;
  /** Whether the status is 2xx. */
  readonly ok: boolean;
  /** False for statuses that carry no body (204, 205, 304): fetch's `response.body === null`. */
  readonly hasBody: boolean;
  /** A response header by lower-case name (repeated ones joined with `, `); `null` when absent. */
  header(name: string): string | null;
  /** The whole body, decoded as UTF-8. */
  text(): Promise<string>;
  /**
   * Reads the body as UTF-8 text, handing each piece to `onText` as it arrives; resolves at the end of the body,
   * rejects when reading fails (a reset connection, the request's signal aborted).
   */
  stream(onText: (text: string) => void): Promise<void>;
  /** Drops the body: nothing more of it is read. Never throws. */
  discard(): void;
}

/** Sends one request; rejects when no answer arrives (network failure, refused connection, aborted). */
export type HttpExchange = (url: URL, init: HttpRequestInit) => Promise<HttpAnswer>;
