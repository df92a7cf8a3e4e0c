import { errorCodeOf, type RequestTarget } from './request-facts';

// Attribute names of the OpenTelemetry semantic conventions for MCP (semantic-conventions-genai, docs/gen-ai/mcp.md;
// status: development). Written out here rather than imported from @opentelemetry/semantic-conventions: the MCP
// names live in its unstable `incubating` entry, and one more dependency for a dozen strings is not worth it.
export const ATTR_MCP_METHOD_NAME = 'mcp.method.name';
export const ATTR_MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
export const ATTR_MCP_SESSION_ID = 'mcp.session.id';
export const ATTR_MCP_RESOURCE_URI = 'mcp.resource.uri';
export const ATTR_JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const ATTR_GEN_AI_PROMPT_NAME = 'gen_ai.prompt.name';
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
export const ATTR_ERROR_TYPE = 'error.type';
export const ATTR_RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code';

/** `error.type` when a tool answered `isError: true` (the call itself succeeded). */
export const TOOL_ERROR = 'tool_error';

/** Span name per the conventions: `{method} {tool or prompt name}`; the resource URI only when asked (cardinality). */
export function spanNameOf(method: string, target: RequestTarget, resourceInName: boolean): string {
  const name = target.tool ?? target.prompt ?? (resourceInName ? target.resource : undefined);
  return name === undefined ? method : `${method} ${name}`;
}

/** The attributes that say what a request is about. */
export function targetAttributes(target: RequestTarget, into: Record<string, string>): void {
  if (target.tool !== undefined) {
    into[ATTR_GEN_AI_TOOL_NAME] = target.tool;
    into[ATTR_GEN_AI_OPERATION_NAME] = 'execute_tool';
  }
  if (target.prompt !== undefined) into[ATTR_GEN_AI_PROMPT_NAME] = target.prompt;
  if (target.resource !== undefined) into[ATTR_MCP_RESOURCE_URI] = target.resource;
}

/**
 * `error.type` of a failed request: the JSON-RPC error code as a string (the conventions' rule), a local error's
 * code (`ERR_REQUEST_TIMEOUT`), its class name, or `_OTHER`.
 */
export function errorTypeOf(error: unknown): string {
  const code = errorCodeOf(error);
  if (code !== undefined) return String(code);
  if (error instanceof Error && error.name !== 'Error') return error.name;
  return '_OTHER';
}
