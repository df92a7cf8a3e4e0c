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
