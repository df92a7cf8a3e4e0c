import { type ListToolsResult, validateMcpHeaderDeclarations } from '@mcpkit/protocol';

/**
 * Drops tools whose `x-mcp-header` declarations are invalid (SEP-2243: the client MUST reject such a definition),
 * calling `onDrop` for each. Returns `result` itself when nothing was dropped, so the common case copies nothing.
 */
export function dropInvalidTools(
  result: ListToolsResult,
  onDrop: (tool: string, reason: string) => void,
): ListToolsResult {
  const tools = Array.isArray(result.tools) ? result.tools : [];
  let kept: ListToolsResult['tools'] | undefined;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    const declared = validateMcpHeaderDeclarations(tool.inputSchema);
    if (declared.ok) {
      kept?.push(tool);
      continue;
    }
    kept ??= tools.slice(0, index);
    onDrop(String(tool.name), declared.reason);
  }
  return kept === undefined ? result : { ...result, tools: kept };
}
