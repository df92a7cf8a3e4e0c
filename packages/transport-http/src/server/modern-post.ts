import { type AuthInfo, JsonRpcErrorCode, validateMessage } from '@mcpkit/jsonrpc-core';
import { compareRequestHeaders, headerMismatchError, type McpHeaderParam } from '@mcpkit/protocol';
import { type EndpointContext, notifyServer } from './endpoint-context';
import { type Answer, reply } from './reply';
import { requestInfoOf } from './request-info';
import { errorResponse, jsonResponse } from './responses';
import { runStateless } from './stateless';

// The 2026-07-28 era over Streamable HTTP: every POST stands alone (no session, no GET, no server→client requests). The
// headers that mirror the body (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) are checked against it before anything runs.

/** Where a tool's `x-mcp-header` declarations come from (see `StreamableHttpHandlerOptions.toolHeaderParams`). */
export type ToolHeaderParams = (
  toolName: string,
) => readonly McpHeaderParam[] | undefined | Promise<readonly McpHeaderParam[] | undefined>;

/** @internal Answers one 2026-07-28 POST whose body parsed as JSON. */
export async function modernPost(
  context: EndpointContext,
  toolHeaderParams: ToolHeaderParams,
  request: Request,
  value: unknown,
  auth: AuthInfo | undefined,
): Promise<Answer> {
  if (Array.isArray(value)) {
    return errorResponse(400, JsonRpcErrorCode.InvalidRequest, 'Invalid Request: 2026-07-28 accepts no batches');
  }
  const checked = validateMessage(value);
  if (!checked.ok) return jsonResponse(400, checked.error);
  const message = checked.message;
  if (!('method' in message)) {
    return errorResponse(
      400,
      JsonRpcErrorCode.InvalidRequest,
      'Invalid Request: a 2026-07-28 client sends no responses (the server sends it no requests)',
      { id: message.id },
    );
  }
  let declarations: readonly McpHeaderParam[] | undefined;
  if (message.method === 'tools/call') {
    const name = (message.params as { name?: unknown } | undefined)?.name;
    if (typeof name === 'string') declarations = await toolHeaderParams(name);
  }
  const comparison = compareRequestHeaders(request.headers, message, declarations);
  const id = 'id' in message ? message.id : null;
  if (!comparison.ok) {
    const error = headerMismatchError(comparison.detail);
    return errorResponse(400, error.code, error.message, { id, data: { header: comparison.header } });
  }
  if (!('id' in message)) {
    notifyServer(context, message, auth, request, undefined);
    return reply(202);
  }
  return runStateless({
    server: context.server,
    message,
    auth,
    requestInfo: requestInfoOf(request),
    session: undefined,
    mode: context.mode,
    keepAliveMs: context.keepAliveMs,
    maxBufferedBytes: context.maxBufferedBytes,
    era: 'modern',
    request,
  });
}
