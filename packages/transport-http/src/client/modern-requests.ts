import type { JsonRpcErrorObject, JsonRpcMessage, JsonRpcRequest } from '@mcpkit/jsonrpc-core';
import { headersForToolCall, McpHeaders, standardHeadersFor } from '@mcpkit/protocol';
import type { ClientCore, HttpEra, InFlight, RoundTripState, StreamChain } from './client-core';
import { isParamHeaderMismatch, modernVersionOf } from './era-rules';
import { asError, streamEndedError } from './errors';
import type { HttpAnswer } from './http-exchange';
import { ToolHeaderRegistry } from './tool-headers';

const MAX_RELIST_PAGES = 100;

/**
 * The 2026-07-28 half of StreamableHttpClientTransport: no session, every request a POST carrying
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-*` headers its tool declares with
 * `x-mcp-header` (learned from the `tools/list` results that pass through; on a HeaderMismatch about param headers the
 * tools are listed again and the call retried once).
 */
export class ModernRequests implements HttpEra {
  /** Closing a request's response stream is its cancellation: nothing is posted. */
  readonly cancelsBySignal = true;
  /** The version the client negotiated (`setProtocolVersion`), for messages whose envelope names none. */
  protocolVersion: string | undefined;
  readonly #core: ClientCore;
  readonly #tools = new ToolHeaderRegistry();

  constructor(core: ClientCore) {
    this.#core = core;
  }

  /** Adds the MCP headers of `message` to a POST's `headers`. */
  addHeaders(message: JsonRpcMessage, headers: Record<string, string | undefined>): void {
    // A request names its own version in its envelope; the header mirrors it.
    const version = modernVersionOf(message) ?? this.protocolVersion;
    if (!('method' in message)) {
      headers[McpHeaders.ProtocolVersion] = version;
      return;
    }
    Object.assign(headers, standardHeadersFor(message, version));
    if (message.method === 'tools/call' && 'id' in message) {
      const params = message.params as { name?: unknown; arguments?: Record<string, unknown> } | undefined;
      Object.assign(headers, headersForToolCall(this.#tools.paramsOf(params?.name), params?.arguments));
    }
  }

  answered(_answer: HttpAnswer): void {
    // No session: an answer's headers teach this era nothing.
  }

  /** Learns what a delivered result teaches: the `x-mcp-header` declarations of listed tools. */
  learn(request: JsonRpcRequest, result: unknown): void {
    if (request.method === 'tools/list') this.#tools.learn(result);
  }

  /**
   * A `tools/call` refused with a HeaderMismatch about `Mcp-Param-*` headers: the tool's declarations may have
   * changed, so list the tools again and send the call once more. False when that repair does not apply.
   */
  async repair(entry: InFlight, state: RoundTripState, error: JsonRpcErrorObject): Promise<boolean> {
    if (state.relisted || entry.request.method !== 'tools/call' || !isParamHeaderMismatch(error)) return false;
    state.relisted = true;
    if (!(await this.#relistTools(entry.request))) return false;
    await this.#core.retry(entry, state);
    return true;
  }

  /** 2026-07-28 has no resumption: a response stream that ends early fails its request. */
  async streamEnded(chain: StreamChain, why: string, failure: unknown): Promise<void> {
    // Only requests' streams are of this era (the standalone stream is legacy), so there is an entry.
    if (chain.entry !== undefined) throw streamEndedError(this.#core.url, chain.entry.request, why, failure);
  }

  /** Re-runs `tools/list` (all pages) with the envelope of `call`, to learn current `x-mcp-header` declarations. */
  async #relistTools(call: JsonRpcRequest): Promise<boolean> {
    const core = this.#core;
    const meta = { ...((call.params as { _meta?: Record<string, unknown> } | undefined)?._meta ?? {}) };
    delete meta.progressToken;
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_RELIST_PAGES; page++) {
        const params: Record<string, unknown> = cursor === undefined ? { _meta: meta } : { _meta: meta, cursor };
        const request: JsonRpcRequest = { jsonrpc: '2.0', id: core.privateId('relist'), method: 'tools/list', params };
        const answer = await core.privateCall(request, core.lifetime);
        if ('error' in answer) return false;
        this.#tools.learn(answer.result);
        const next = (answer.result as { nextCursor?: unknown } | null)?.nextCursor;
        if (typeof next !== 'string') return true;
        cursor = next;
      }
    } catch (error) {
      core.report(asError(error));
      return false;
    }
    return true;
  }
}
