import type { ServerContext, ServerMiddleware } from './types';
import type { ContextVariableMap } from './variables';

/**
 * A name pattern: an exact name, a glob where `*` matches any run of characters (`tools/*`, `delete_*`,
 * `file:///logs/*`), a list of either, or a predicate.
 */
export type NamePattern = string | readonly string[] | ((name: string) => boolean);

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** Compiles a pattern once into a test. Exact names are a Set lookup; globs become one anchored RegExp. */
export function namePattern(pattern: NamePattern): (name: string) => boolean {
  if (typeof pattern === 'function') return pattern;
  const list = typeof pattern === 'string' ? [pattern] : [...pattern];
  const exact = new Set(list.filter((item) => !item.includes('*')));
  const globs = list.filter((item) => item.includes('*'));
  if (globs.length === 0) return (name) => exact.has(name);
  const regex = new RegExp(`^(?:${globs.map((glob) => glob.split('*').map(escapeRegExp).join('.*')).join('|')})$`, 's');
  return (name) => exact.has(name) || regex.test(name);
}

function only<V extends object>(
  test: (ctx: ServerContext<V>) => boolean,
  middleware: ServerMiddleware<V>,
): ServerMiddleware<V> {
  return (ctx, next) => (test(ctx) ? middleware(ctx, next) : next());
}

function stringParam(
  ctx: { readonly params: Record<string, unknown> | undefined },
  key: 'name' | 'uri',
): string | undefined {
  const value = ctx.params?.[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Runs `middleware` only for the methods matching `pattern` (requests and notifications); everything else passes by.
 *
 * @example
 * server.use(forMethod('tools/*', rateLimit));
 * server.use(forMethod(['resources/read', 'resources/list'], cache));
 */
export function forMethod<V extends object = ContextVariableMap>(
  pattern: NamePattern,
  middleware: ServerMiddleware<V>,
): ServerMiddleware<V> {
  const matches = namePattern(pattern);
  return only((ctx) => matches(ctx.method), middleware);
}

/**
 * Runs `middleware` only for `tools/call` of the tools matching `pattern`.
 *
 * @example
 * server.use(forTool(['deploy', 'delete_*'], requireApproval));
 */
export function forTool<V extends object = ContextVariableMap>(
  pattern: NamePattern,
  middleware: ServerMiddleware<V>,
): ServerMiddleware<V> {
  const matches = namePattern(pattern);
  return only((ctx) => {
    if (ctx.kind !== 'request' || ctx.method !== 'tools/call') return false;
    const name = stringParam(ctx, 'name');
    return name !== undefined && matches(name);
  }, middleware);
}

/**
 * Runs `middleware` only for `prompts/get` of the prompts matching `pattern`.
 *
 * @example
 * server.use(forPrompt('admin_*', requireScope('admin')));
 */
export function forPrompt<V extends object = ContextVariableMap>(
  pattern: NamePattern,
  middleware: ServerMiddleware<V>,
): ServerMiddleware<V> {
  const matches = namePattern(pattern);
  return only((ctx) => {
    if (ctx.kind !== 'request' || ctx.method !== 'prompts/get') return false;
    const name = stringParam(ctx, 'name');
    return name !== undefined && matches(name);
  }, middleware);
}

const RESOURCE_METHODS: ReadonlySet<string> = new Set([
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/**
 * Runs `middleware` only for requests about the resources whose URI matches `pattern` (`resources/read`,
 * `resources/subscribe`, `resources/unsubscribe`).
 *
 * @example
 * server.use(forResource('file:///private/*', requireScope('files:read')));
 */
export function forResource<V extends object = ContextVariableMap>(
  pattern: NamePattern,
  middleware: ServerMiddleware<V>,
): ServerMiddleware<V> {
  const matches = namePattern(pattern);
  return only((ctx) => {
    if (ctx.kind !== 'request' || !RESOURCE_METHODS.has(ctx.method)) return false;
    const uri = stringParam(ctx, 'uri');
    return uri !== undefined && matches(uri);
  }, middleware);
}

/** Runs `middleware` for requests only (notifications pass by). */
export function forRequests<V extends object = ContextVariableMap>(
  middleware: ServerMiddleware<V>,
): ServerMiddleware<V> {
  return only((ctx) => ctx.kind === 'request', middleware);
}
