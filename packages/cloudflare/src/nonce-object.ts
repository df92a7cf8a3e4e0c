import type { NonceStore } from '@mcpkit/server';
import type { DurableObjectNamespaceLike, DurableObjectStateLike } from './platform';

// requestState tokens (2026-07-28 multi round-trip requests) are single use, and every isolate must agree on which
// were used. Each nonce gets its own Durable Object (`idFromName(nonce)`): the object is the one place that nonce is
// decided, strongly consistent and serialised, so two isolates replaying one token at the same instant get one `true`
// and one `false`. KV would not do: it is eventually consistent (a write takes up to a minute to be seen elsewhere)
// and has no compare-and-set, so a replay inside that window would pass. The object deletes its record with an alarm
// at the token's expiry (after which the token is refused anyway), so nothing accumulates.

/**
 * The Durable Object class behind {@link DurableObjectNonceStore}. Bind it (e.g. `MCP_NONCES`); it needs no SQL.
 *
 * @example
 * export const McpNonces = defineMcpNonceObject();
 */
export function defineMcpNonceObject(): new (
  state: DurableObjectStateLike,
  env: unknown,
) => { fetch(request: Request): Promise<Response>; alarm(): Promise<void> } {
  return class McpNonceDurableObject {
    readonly #state: DurableObjectStateLike;

    constructor(state: DurableObjectStateLike) {
      this.#state = state;
    }

    async fetch(request: Request): Promise<Response> {
      const { expiresAt } = (await request.json()) as { expiresAt: number };
      const storage = this.#state.storage;
      if ((await storage.get('used')) !== undefined) return new Response('used');
      await storage.put('used', expiresAt);
      await storage.setAlarm(Math.max(Date.now(), expiresAt) + 1000);
      return new Response('fresh');
    }

    async alarm(): Promise<void> {
      await this.#state.storage.deleteAll();
    }
  };
}

/**
 * A `NonceStore` (of `@mcpkit/server`) on Durable Objects, so a `requestState` token is accepted once across every
 * isolate of a Worker. Pass it as the server's `nonceStore`, with a `requestStateSecret` from the Worker's secrets.
 *
 * @example
 * const server = new McpServer(info, {
 *   requestStateSecret: env.REQUEST_STATE_SECRET,
 *   nonceStore: new DurableObjectNonceStore(env.MCP_NONCES),
 * });
 */
export class DurableObjectNonceStore implements NonceStore {
  readonly #namespace: DurableObjectNamespaceLike;

  constructor(namespace: DurableObjectNamespaceLike) {
    this.#namespace = namespace;
  }

  async consume(nonce: string, expiresAt: number): Promise<boolean> {
    // A stub per call (workerd ties a stub to the request that made it), which one nonce needs anyway.
    const stub = this.#namespace.get(this.#namespace.idFromName(nonce));
    const response = await stub.fetch(
      new Request('https://mcp-nonces.internal/', { method: 'POST', body: JSON.stringify({ expiresAt }) }),
    );
    return (await response.text()) === 'fresh';
  }
}
