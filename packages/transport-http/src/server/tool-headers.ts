import type { JsonRpcRequest } from '@mcpkit/jsonrpc-core';
import { type McpHeaderParam, MetaKeys, validateMcpHeaderDeclarations } from '@mcpkit/protocol';
import { type DispatchContext, SchemaError, type Server } from '@mcpkit/server';

// The x-mcp-header declarations of the server's tools, which a 2026-07-28 `tools/call` must mirror in Mcp-Param-*
// headers. @mcpkit/server has no public lookup of a tool's definition, so we ask the server's own `tools/list` (the
// way a client would) and cache the index by the identity of the returned array: McpServer returns the same cached
// array until its tool list changes, so a lookup costs one in-process dispatch and no re-scan.

const NO_PARAMS: readonly McpHeaderParam[] = Object.freeze([]);
const MAX_PAGES = 100;
/** How many invalid declarations are remembered as reported (each is reported once). */
const MAX_REPORTED = 1000;
// Made on first use, not at import: workerd (Cloudflare Workers) refuses to create an AbortController at module scope.
let never: AbortSignal | undefined;

function neverAborted(): AbortSignal {
  never ??= new AbortController().signal;
  return never;
}

function listRequest(cursor: string | undefined): JsonRpcRequest {
  const params: Record<string, unknown> = {
    _meta: { [MetaKeys.ProtocolVersion]: '2026-07-28', [MetaKeys.ClientCapabilities]: {} },
  };
  if (cursor !== undefined) params.cursor = cursor;
  return { jsonrpc: '2.0', id: 0, method: 'tools/list', params };
}

const FIRST_PAGE = listRequest(undefined);

function dispatchContext(request: JsonRpcRequest): DispatchContext {
  return {
    requestId: 0,
    message: request,
    signal: neverAborted(),
    info: {},
    notify: () => Promise.resolve(),
    internal: true,
  };
}

/** Tool name → its `x-mcp-header` declarations, kept in step with the server's `tools/list`. */
export class ToolHeaderIndex {
  readonly #server: Server;
  #source: unknown = undefined;
  #byName = new Map<string, readonly McpHeaderParam[]>();
  /** The invalid declarations already reported (tool name and reason), so a rebuilt index does not repeat them. */
  readonly #reported = new Set<string>();

  constructor(server: Server) {
    this.#server = server;
  }

  async lookup(name: string): Promise<readonly McpHeaderParam[]> {
    let first: { tools?: unknown; nextCursor?: unknown };
    try {
      first = (await this.#server.dispatch(FIRST_PAGE, dispatchContext(FIRST_PAGE), undefined)) as typeof first;
    } catch {
      return NO_PARAMS; // no tools capability or no tools/list: nothing is declared
    }
    if (first.tools !== this.#source || first.nextCursor !== undefined) {
      this.#source = first.tools;
      this.#byName = await this.#build(first);
    }
    return this.#byName.get(name) ?? NO_PARAMS;
  }

  async #build(first: { tools?: unknown; nextCursor?: unknown }): Promise<Map<string, readonly McpHeaderParam[]>> {
    const index = new Map<string, readonly McpHeaderParam[]>();
    let page = first;
    for (let count = 0; count < MAX_PAGES; count++) {
      if (Array.isArray(page.tools)) {
        for (const tool of page.tools as { name?: unknown; inputSchema?: unknown }[]) {
          if (typeof tool?.name !== 'string') continue;
          const declared = validateMcpHeaderDeclarations(tool.inputSchema);
          if (!declared.ok) this.#reportInvalid(tool.name, declared.reason);
          else if (declared.params.length > 0) index.set(tool.name, declared.params);
        }
      }
      if (typeof page.nextCursor !== 'string') break;
      const request = listRequest(page.nextCursor);
      page = (await this.#server.dispatch(request, dispatchContext(request), undefined)) as typeof page;
    }
    return index;
  }

  /**
   * Tells the server's `onError` (else the console) once about a tool whose declarations are invalid: `McpServer`
   * refuses such a tool at registration, but a server without that check (`McpToolServer`) learns it here.
   */
  #reportInvalid(name: string, reason: string): void {
    const key = `${name}\u0000${reason}`;
    if (this.#reported.has(key) || this.#reported.size >= MAX_REPORTED) return;
    this.#reported.add(key);
    const report = this.#server.onerror ?? console.warn;
    report(
      new SchemaError(
        `Tool "${name}": invalid x-mcp-header declaration: ${reason}; Streamable HTTP clients drop this tool from tools/list (2026-07-28)`,
        { name },
      ),
    );
  }
}
