import {
  isJsonObject,
  type JsonRpcParams,
  type JsonRpcRequest,
  type PeerHooks,
  type ProgressToken,
} from '@mcpkit/jsonrpc-core';

/** The progress a `notifications/progress` carries, as handed to a request's `onProgress`. */
export interface ProgressUpdatePayload {
  progress: number;
  total?: number;
  message?: string;
}

/** Options for `createMcpPeerHooks`. */
export interface McpPeerHooksOptions {
  /**
   * Whether a cancellation notification is sent for `request` when it times out or is aborted. Default: always,
   * except `initialize`. Streamable HTTP in 2026-07-28 cancels by closing the response stream instead, so its
   * transport may pass `() => false`.
   */
  sendCancellation?: (request: JsonRpcRequest) => boolean;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return isJsonObject(value) ? value : undefined;
}

function isToken(value: unknown): value is ProgressToken {
  return typeof value === 'string' || typeof value === 'number';
}

/**
 * MCP's rules for the jsonrpc-core engine's protocol seams: progress tokens travel in `params._meta.progressToken`
 * and come back in `notifications/progress`; cancellation is `notifications/cancelled {requestId, reason}`, never for
 * `initialize`.
 *
 * @example
 * import { JsonRpcPeer } from '@mcpkit/jsonrpc-core';
 * import { createMcpPeerHooks } from '@mcpkit/protocol';
 * const peer = new JsonRpcPeer({ hooks: createMcpPeerHooks() });
 */
export function createMcpPeerHooks(options: McpPeerHooksOptions = {}): PeerHooks {
  const sendCancellation = options.sendCancellation;
  return {
    attachProgressToken(params: JsonRpcParams | undefined, token: ProgressToken): JsonRpcParams {
      const object = asObject(params) ?? {};
      return { ...object, _meta: { ...asObject(object._meta), progressToken: token } };
    },
    readProgress(method, params) {
      if (method !== 'notifications/progress') return undefined;
      const object = asObject(params);
      if (!object || !isToken(object.progressToken) || typeof object.progress !== 'number') return undefined;
      const progress: ProgressUpdatePayload = { progress: object.progress };
      if (typeof object.total === 'number') progress.total = object.total;
      if (typeof object.message === 'string') progress.message = object.message;
      return { token: object.progressToken, progress };
    },
    cancellationNotification(request, reason) {
      // The spec forbids cancelling `initialize` with `notifications/cancelled`.
      if (request.method === 'initialize') return undefined;
      if (sendCancellation && !sendCancellation(request)) return undefined;
      const text = reason instanceof Error ? reason.message : reason === undefined ? undefined : String(reason);
      return {
        method: 'notifications/cancelled',
        params: text === undefined ? { requestId: request.id } : { requestId: request.id, reason: text },
      };
    },
    readCancellation(method, params) {
      if (method !== 'notifications/cancelled') return undefined;
      const object = asObject(params);
      // 2025-11-25 made requestId optional (for task cancellation); without it there is no request to stop.
      if (!object || !isToken(object.requestId)) return undefined;
      return typeof object.reason === 'string'
        ? { requestId: object.requestId, reason: object.reason }
        : { requestId: object.requestId };
    },
  };
}

/** The default MCP hooks (cancellation sent for every request but `initialize`). Shared; stateless. */
export const mcpPeerHooks: PeerHooks = createMcpPeerHooks();
