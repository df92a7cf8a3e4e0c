import { JsonRpcErrorCode, type JsonRpcErrorObject, type JsonRpcMessage } from '@mcpkit/jsonrpc-core';
import {
  envelopeVersion,
  isHeaderMismatchCode,
  isModernEraErrorCode,
  isModernVersion,
  McpHeaders,
} from '@mcpkit/protocol';

// What the 2026-07-28 Streamable HTTP rules say about a request or an error, as the client transport reads them.

/**
 * The known 2026-07-28-or-later version a message's `_meta` envelope names (read by protocol's one reader), if any:
 * such a request is sent by the modern rules whatever the connection's era (the probe comes before negotiation).
 */
export function modernVersionOf(message: JsonRpcMessage): string | undefined {
  const version = 'method' in message ? envelopeVersion(message.params) : undefined;
  // Era test kept: the transport's one reading of a message's envelope, which its #eraOf builds on; a version this
  // client does not know as modern is never sent by the modern rules (protocol's messageEra accepts any version).
  return isModernVersion(version) ? version : undefined;
}

/** A HeaderMismatch the server blames on an `Mcp-Param-*` header: the tool's declarations may have changed. */
export function isParamHeaderMismatch(error: JsonRpcErrorObject): boolean {
  if (!isHeaderMismatchCode(error.code)) return false;
  const where = `${error.message} ${error.data === undefined ? '' : JSON.stringify(error.data)}`;
  return where.toLowerCase().includes(McpHeaders.ParamPrefix.toLowerCase());
}

/**
 * Whether a refusal comes from a 2026-07-28 server (so no HTTP+SSE fallback): one of its error codes, or -32602,
 * which a modern server answers for a request without the `_meta` envelope.
 */
export function isModernRefusal(error: JsonRpcErrorObject | undefined): boolean {
  return error !== undefined && (isModernEraErrorCode(error.code) || error.code === JsonRpcErrorCode.InvalidParams);
}
