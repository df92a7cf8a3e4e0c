import { fetchExchange } from './fetch-exchange';
import type { HttpExchange } from './http-exchange';
import { type NodeHttpModules, nodeExchange } from './node-exchange';
import { canRefuseRedirects } from './redirect-mode';

// Which HTTP stack a client transport runs on, decided once when it is built:
// - a `fetch` the caller passed (OAuth, proxies, tests) is always used as it is;
// - on Node, `node:http` / `node:https` (node-exchange.ts), loaded with `process.getBuiltinModule` (Node 20.16+), so
//   no module of this package imports a Node built-in and the root entry still runs in browsers, Deno, Bun and
//   Workers — unless the process routes fetch through a proxy (an undici dispatcher it installed, or Node's
//   `NODE_USE_ENV_PROXY`), which the node path would bypass: then Node's fetch;
// - anywhere else, the runtime's `fetch`.

/** The exchange a transport uses: the caller's `fetch`, else the fastest one this runtime offers. */
export function exchangeFor(custom: typeof fetch | undefined): HttpExchange {
  if (custom !== undefined) return fetchExchange(custom, false);
  const modules = nodeHttpModules();
  if (modules !== undefined) return nodeExchange(modules);
  return fetchExchange(globalThis.fetch.bind(globalThis), canRefuseRedirects(undefined));
}

interface NodeProcess {
  versions?: { node?: unknown; bun?: unknown };
  env?: Record<string, string | undefined>;
  execArgv?: string[];
  getBuiltinModule?: (id: string) => unknown;
}

/** undici's key for the dispatcher every `fetch` of the process goes through, once someone set or used one. */
const UNDICI_GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/** Node's `http`, `https` and (lazily) `zlib`, when the node path may be used here; else undefined. */
export function nodeHttpModules(): NodeHttpModules | undefined {
  const runtime = globalThis as { process?: NodeProcess; Deno?: unknown; [UNDICI_GLOBAL_DISPATCHER]?: unknown };
  const process = runtime.process;
  // Bun and Deno have `process` and node:http too, but their fetch is their native, fast path.
  if (typeof process?.versions?.node !== 'string' || process.versions.bun !== undefined) return undefined;
  if (runtime.Deno !== undefined || typeof process.getBuiltinModule !== 'function') return undefined;
  if (proxiedFetch(process, runtime[UNDICI_GLOBAL_DISPATCHER])) return undefined;
  const load = process.getBuiltinModule.bind(process);
  return {
    http: load('node:http') as NodeHttpModules['http'],
    https: load('node:https') as NodeHttpModules['https'],
    zlib: () => load('node:zlib') as ReturnType<NodeHttpModules['zlib']>,
  };
}

/**
 * Whether the process sends `fetch` through something `node:http` would bypass: an undici dispatcher other than the
 * plain `Agent` fetch creates for itself (a `ProxyAgent`, `EnvHttpProxyAgent`, `MockAgent`, …), or Node's own proxy
 * support (`NODE_USE_ENV_PROXY=1`, `--use-env-proxy`).
 */
function proxiedFetch(process: NodeProcess, dispatcher: unknown): boolean {
  if (dispatcher !== undefined && (dispatcher as { constructor?: { name?: unknown } }).constructor?.name !== 'Agent') {
    return true;
  }
  const useEnvProxy = process.env?.NODE_USE_ENV_PROXY;
  if (useEnvProxy !== undefined && useEnvProxy !== '' && useEnvProxy !== '0') return true;
  return (
    process.execArgv?.includes('--use-env-proxy') === true ||
    process.env?.NODE_OPTIONS?.includes('--use-env-proxy') === true
  );
}
