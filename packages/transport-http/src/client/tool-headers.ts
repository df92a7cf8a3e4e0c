import { type McpHeaderParam, validateMcpHeaderDeclarations } from '@mcpkit/protocol';

/**
 * The `x-mcp-header` declarations of the tools a 2026-07-28 server listed, learned from the `tools/list` results that
 * pass through the transport, so a `tools/call` can carry its `Mcp-Param-*` headers. Tools with invalid declarations
 * are forgotten (the client drops them from its list; calling one sends no param headers).
 */
export class ToolHeaderRegistry {
  readonly #byTool = new Map<string, readonly McpHeaderParam[]>();

  /** Learns from one `tools/list` result page. */
  learn(result: unknown): void {
    const tools = (result as { tools?: unknown } | null)?.tools;
    if (!Array.isArray(tools)) return;
    for (const tool of tools) {
      const name = (tool as { name?: unknown } | null)?.name;
      if (typeof name !== 'string') continue;
      const declared = validateMcpHeaderDeclarations((tool as { inputSchema?: unknown }).inputSchema);
      if (declared.ok && declared.params.length > 0) this.#byTool.set(name, declared.params);
      else this.#byTool.delete(name);
    }
  }

  /** The declarations of `tool`, empty when it declares none or was never listed. */
  paramsOf(tool: unknown): readonly McpHeaderParam[] {
    return (typeof tool === 'string' ? this.#byTool.get(tool) : undefined) ?? NONE;
  }
}

const NONE: readonly McpHeaderParam[] = [];
