import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '@mcpkit/jsonrpc-core';

/**
 * A JSON-RPC batch of requests and notifications (`JSONRPCBatchRequest`). Exists **only in 2025-03-26**: added there
 * (PR #228) and removed in 2025-06-18 (PR #416). A receiver on any other revision rejects arrays.
 *
 * @example
 * ```ts
 * const batch: JSONRPCBatchRequest = [
 *   { jsonrpc: '2.0', id: 1, method: 'tools/list' },
 *   { jsonrpc: '2.0', method: 'notifications/initialized' },
 * ];
 * ```
 */
export type JSONRPCBatchRequest = Array<JsonRpcRequest | JsonRpcNotification>;

/** The answer to a {@link JSONRPCBatchRequest} (`JSONRPCBatchResponse`); exists only in 2025-03-26. */
export type JSONRPCBatchResponse = JsonRpcResponse[];
