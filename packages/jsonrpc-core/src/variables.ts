/**
 * Typed per-request variables (`ctx.set` / `ctx.get`), the state middleware passes inward, typed like hono's `c.var`:
 * keys declared in `V` are typed, any other string key reads as `unknown`. The map is allocated on the first `set`, so
 * a request nobody sets anything on costs nothing. The MCP contexts of `@mcpkit/server` and `@mcpkit/client` extend it.
 *
 * @example
 * class MyContext extends ContextVariables<{ user: { id: string } }> {}
 * const ctx = new MyContext();
 * ctx.set('user', { id: 'u1' });
 * ctx.get('user')?.id; // typed
 */
export class ContextVariables<V extends object> {
  #values: Map<PropertyKey, unknown> | undefined = undefined;

  /** Sets a variable for the rest of this request (later middleware and the handler see it). */
  set<K extends keyof V>(key: K, value: V[K]): void;
  set(key: string, value: unknown): void;
  set(key: PropertyKey, value: unknown): void {
    if (this.#values === undefined) this.#values = new Map();
    this.#values.set(key, value);
  }

  /** A variable set earlier in this request, or `undefined`. */
  get<K extends keyof V>(key: K): V[K] | undefined;
  get(key: string): unknown;
  get(key: PropertyKey): unknown {
    return this.#values?.get(key);
  }

  /** Whether a variable was set in this request. */
  has(key: keyof V | string): boolean {
    return this.#values?.has(key) === true;
  }
}
