import { JsonRpcError, type Router } from '@mcpkit/jsonrpc-core';
import { type ClientCapabilities, LATEST_LEGACY_PROTOCOL_VERSION, methodExists } from '@mcpkit/protocol';
import type { SessionState } from './eras/client-era';
import { McpClientError } from './errors';
import { answerInputRequest, INPUT_METHODS } from './input-requests';
import type { InputHandlers } from './options';

/** What answering the server's requests needs from the client. */
export interface ServerRequestContext {
  readonly handlers: InputHandlers;
  readonly capabilities: ClientCapabilities;
  /** The negotiated session; undefined while connecting. */
  readonly session: () => SessionState | undefined;
}

/**
 * Registers the client's answers to server→client requests on `peer` (the client's router): `ping`, and `sampling/createMessage`,
 * `elicitation/create` and `roots/list` through the input handlers. Those exist only before 2026-07-28 (where input
 * travels inside results): a session whose era does not answer server requests answers -32601. So does a request the client cannot serve (no handler,
 * or a capability it did not declare), as for a method it does not have.
 */
export function answerServerRequests(peer: Router, context: ServerRequestContext): void {
  for (const method of INPUT_METHODS) {
    peer.setRequestHandler(method, async (params, ctx) => {
      const session = context.session();
      if (session?.era.answersServerRequests === false) throw JsonRpcError.methodNotFound(method);
      const version = session?.version ?? LATEST_LEGACY_PROTOCOL_VERSION;
      // A request the negotiated revision does not have (elicitation in 2025-03-26) is a method this client lacks.
      if (!methodExists(method, version)) throw JsonRpcError.methodNotFound(method);
      try {
        return await answerInputRequest(
          context.handlers,
          context.capabilities,
          version,
          { method, params },
          { signal: ctx.signal, era: 'legacy', requestId: ctx.requestId, relatedRequestId: ctx.info.relatedRequestId },
        );
      } catch (error) {
        if (
          McpClientError.is(error) &&
          (error.code === 'ERR_NO_INPUT_HANDLER' || error.code === 'ERR_UNDECLARED_INPUT_REQUEST')
        ) {
          throw new JsonRpcError(-32601, `Method not found: ${method}`, { method, reason: error.message });
        }
        throw error;
      }
    });
  }
  peer.setRequestHandler('ping', () => {
    if (context.session()?.era.answersServerRequests === false) throw JsonRpcError.methodNotFound('ping');
    return {};
  });
}
