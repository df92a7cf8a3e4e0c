import { type JsonRpcErrorResponse, type JsonRpcMessage, parseMessage } from '@mcpkit/jsonrpc-core';
import type { HttpAnswer } from './http-exchange';

/** The media type of a response, lower-case and without parameters (`application/json; charset=utf-8` → `application/json`). */
export function mediaType(response: HttpAnswer): string {
  const header = response.header('content-type');
  if (header === null) return '';
  const semicolon = header.indexOf(';');
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

/** The outcome of parsing a JSON response body: its messages, and a description of each part that was not one. */
export interface ParsedJsonBody {
  messages: JsonRpcMessage[];
  problems: string[];
}

/**
 * Parses an `application/json` body: one JSON-RPC message, or (2025-03-26 batching) an array of them. Never throws.
 */
export function parseJsonBody(text: string): ParsedJsonBody {
  const messages: JsonRpcMessage[] = [];
  const problems: string[] = [];
  const parsed = parseMessage(text, { allowBatch: true });
  if (parsed.batch !== undefined) {
    for (const item of parsed.batch) {
      if (item.ok) messages.push(item.message);
      else problems.push(item.error.error.message);
    }
  } else if (parsed.ok) {
    messages.push(parsed.message);
  } else {
    problems.push(parsed.error.error.message);
  }
  return { messages, problems };
}

/**
 * The JSON-RPC error an HTTP error response carries in its body, if it carries one (`id` may be null or missing: a
 * server that rejects a request at the HTTP layer often does not know it).
 */
export function errorResponseIn(text: string): JsonRpcErrorResponse | undefined {
  if (text === '') return undefined;
  const parsed = parseMessage(text);
  if (!parsed.ok) return undefined;
  const message = parsed.message;
  return 'error' in message ? message : undefined;
}
