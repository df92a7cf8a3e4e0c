import { validateMcpHeaderDeclarations } from '@mcpkit/protocol';
import { SchemaError } from '../schema/schema';

/**
 * Refuses a tool whose `x-mcp-header` declarations (SEP-2243, 2026-07-28) are invalid: Streamable HTTP clients drop
 * such a tool from `tools/list`, so `McpServer` says so at registration instead. It lives apart from `Tools` so that a
 * server without it (`McpToolServer`, whose bundle carries no header code) leaves the check to the HTTP handler.
 *
 * @example
 * checkMcpHeaders('deploy', { type: 'object', properties: { region: { type: 'number', 'x-mcp-header': 'Region' } } });
 * // throws SchemaError: Tool "deploy": invalid x-mcp-header declaration: … needs "type" "string", "integer" or "boolean"
 */
export function checkMcpHeaders(name: string, jsonSchema: Record<string, unknown>): void {
  const headers = validateMcpHeaderDeclarations(jsonSchema);
  if (!headers.ok) {
    throw new SchemaError(`Tool "${name}": invalid x-mcp-header declaration: ${headers.reason}`, { name });
  }
}
