/**
 * The typed variables of a request, shared by every middleware and the handler (`ctx.set` / `ctx.get`). Declare your
 * own once by augmenting this interface, and `ctx.get('user')` is typed everywhere:
 *
 * @example
 * declare module '@mcpkit/server' {
 *   interface ContextVariableMap {
 *     user: { id: string; plan: 'free' | 'pro' };
 *   }
 * }
 * server.use(async (ctx, next) => {
 *   ctx.set('user', await lookUp(ctx.auth));
 *   return next();
 * });
 * server.registerTool('plan', {}, (_args, ctx) => ({ content: [{ type: 'text', text: ctx.get('user')?.plan ?? 'none' }] }));
 */
// biome-ignore lint/suspicious/noEmptyInterface: an augmentation point, empty until an application declares its variables
export interface ContextVariableMap {}

/**
 * Where a context keeps its variables. The map is allocated on the first `set`, so a request nobody sets anything on
 * costs nothing.
 */
export class ContextVariables<V extends object = ContextVariableMap> {
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
