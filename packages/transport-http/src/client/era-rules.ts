import { JsonRpcErrorCode, type JsonRpcErrorObject, type JsonRpcRequest } from '@mcpkit/jsonrpc-core';
import { isHeaderMismatchCode, isModernEraErrorCode, McpHeaders, MetaKeys } from '@mcpkit/protocol';

// What the 2026-07-28 Streamable HTTP rules say about a request or an error, as the client transport reads them.

/** The protocol version of a request's `_meta` envelope (2026-07-28), if it has one. */
export function envelopeVersion(message: JsonRpcRequest): string | undefined {
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const version = meta?.[MetaKeys.ProtocolVersion];
  return typeof version === 'string' ? version : undefined;
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
