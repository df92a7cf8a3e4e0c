import type { JsonRpcRequest } from '@mcpkit/jsonrpc-core';

/** What a `tools/call` needs: the tool's name and every scope the call requires. */
export interface ToolScopeNeed {
  tool: string;
  /** `requiredScopes` plus the tool's own, without duplicates. */
  scopes: readonly string[];
}

/**
 * The per-tool scope table of bearer auth, built once: `requiredScopes` merged into each tool's list, so a check is
 * one map lookup. A Map, not the options object: a tool named "constructor" must not find Object.prototype's.
 */
export class ToolScopes {
  readonly #byTool = new Map<string, readonly string[]>();

  constructor(requiredScopes: readonly string[], toolScopes: Readonly<Record<string, readonly string[]>> | undefined) {
    for (const [tool, scopes] of Object.entries(toolScopes ?? {})) {
      this.#byTool.set(tool, [...new Set([...requiredScopes, ...scopes])]);
    }
  }

  /** What `message` needs beyond the connection's required scopes, or `undefined` when it is not a scoped tool call. */
  needOf(message: JsonRpcRequest): ToolScopeNeed | undefined {
    if (this.#byTool.size === 0 || message.method !== 'tools/call') return undefined;
    const tool = (message.params as { name?: unknown } | undefined)?.name;
    if (typeof tool !== 'string') return undefined;
    const scopes = this.#byTool.get(tool);
    return scopes === undefined ? undefined : { tool, scopes };
  }
}
