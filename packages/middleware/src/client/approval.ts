import { type ClientMiddleware, ClientRequestContext } from '@mcpkit/client';
import { defineCodedError } from '@mcpkit/jsonrpc-core';
import type { Tool, ToolAnnotations } from '@mcpkit/protocol';
import { type NamePattern, namePattern } from '@mcpkit/server';

/** What the person (or policy) deciding on a tool call is shown. */
export interface ToolCallApprovalRequest {
  /** The tool's name. */
  tool: string;
  /** The arguments the call would send. */
  arguments: Record<string, unknown>;
  /**
   * The tool's annotations (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`, `title`) from the
   * server's `tools/list`, when the client has listed it. Hints from the server: never trust them from an untrusted one.
   */
  annotations: ToolAnnotations | undefined;
  /** The whole tool definition, when known (description, input schema). */
  definition: Tool | undefined;
}

/** Options of {@link approval}. */
export interface ApprovalOptions {
  /**
   * Decides: `true` sends the call, `false` refuses it and nothing is sent. Ask a person here (a dialog, a terminal
   * prompt); the call waits for the answer (its abort signal still applies).
   */
  approve: (request: ToolCallApprovalRequest, signal: AbortSignal | undefined) => boolean | Promise<boolean>;
  /** The tools that need approval. Default: every tool. */
  tools?: NamePattern;
  /** Let calls of tools annotated `readOnlyHint: true` through without asking. Default `false`. */
  skipReadOnly?: boolean;
  /**
   * Where else to find tool definitions (annotations), beside the `tools/list` results this middleware sees go by,
   * e.g. `() => client.lists.tools`.
   */
  knownTools?: () => readonly Tool[] | undefined;
}

/** Debug data of a {@link ToolCallDeniedError}. */
export interface ToolCallDeniedErrorData {
  tool: string;
  arguments: Record<string, unknown>;
}

/** A tool call refused by the approval callback: nothing was sent to the server. */
export class ToolCallDeniedError extends defineCodedError<'ERR_TOOL_CALL_DENIED', ToolCallDeniedErrorData>(
  'ToolCallDeniedError',
  '@mcpkit/middleware/ToolCallDeniedError',
) {}

/**
 * Human-in-the-loop tool-call approval for a client: before a `tools/call` is sent, `approve` gets the tool, its
 * arguments and its annotations; a refusal throws {@link ToolCallDeniedError} and nothing reaches the server. Asked
 * once per call (the `input_required` rounds of an approved call are not asked again). Annotations come from the
 * `tools/list` results this middleware sees (list the tools first) or from `knownTools`.
 *
 * @example
 * client.use(approval({
 *   approve: async ({ tool, arguments: args, annotations }) =>
 *     annotations?.readOnlyHint === true || (await confirm(`Run ${tool} with ${JSON.stringify(args)}?`)),
 * }));
 */
export function approval(options: ApprovalOptions): ClientMiddleware {
  const needsApproval = options.tools === undefined ? () => true : namePattern(options.tools);
  const seen = new Map<string, Tool>();
  const lookUp = (name: string): Tool | undefined => {
    const listed = seen.get(name);
    if (listed !== undefined) return listed;
    return options.knownTools?.()?.find((tool) => tool.name === name);
  };

  return async (ctx, next) => {
    if (!(ctx instanceof ClientRequestContext)) return next();
    if (ctx.method === 'tools/list') {
      const result = await next();
      const tools = (result as { tools?: unknown } | undefined)?.tools;
      if (Array.isArray(tools)) {
        for (const tool of tools as Tool[]) if (typeof tool?.name === 'string') seen.set(tool.name, tool);
      }
      return result;
    }
    if (ctx.method !== 'tools/call' || ctx.round > 0) return next();
    const name = ctx.params?.name;
    if (typeof name !== 'string' || !needsApproval(name)) return next();
    const definition = lookUp(name);
    const annotations = definition?.annotations;
    if (options.skipReadOnly === true && annotations?.readOnlyHint === true) return next();
    const args = (ctx.params?.arguments ?? {}) as Record<string, unknown>;
    const approved = await options.approve({ tool: name, arguments: args, annotations, definition }, ctx.signal);
    ctx.signal?.throwIfAborted();
    if (approved !== true) {
      throw new ToolCallDeniedError(
        'ERR_TOOL_CALL_DENIED',
        `The call of tool "${name}" was not approved; nothing was sent to the server`,
        { tool: name, arguments: args },
      );
    }
    return next();
  };
}
