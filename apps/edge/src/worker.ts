// The Cloudflare deployment: 2026-07-28 and legacy stateless requests in the Worker, each legacy session in a Durable
// Object, tasks in another (SQLite), requestState nonces in one per nonce. `wrangler dev` runs it locally (README.md).

import {
  createMcpWorker,
  type DurableObjectNamespaceLike,
  DurableObjectNonceStore,
  defineMcpNonceObject,
  defineMcpSessionObject,
  defineMcpTaskObject,
  TaskObjectStore,
} from '@mcpkit/cloudflare';
import { buildServer } from './server';

/** The bindings of wrangler.toml, and the secret (`wrangler secret put REQUEST_STATE_SECRET`). */
export interface Env {
  MCP_SESSIONS: DurableObjectNamespaceLike;
  MCP_TASKS: DurableObjectNamespaceLike;
  MCP_NONCES: DurableObjectNamespaceLike;
  REQUEST_STATE_SECRET: string;
  /** How long an isolate's hold on its running tasks lasts (ms); optional, default 30 s (the tests shorten it). */
  TASK_LEASE_MS?: string;
}

// One task store per isolate (and environment): the Worker waits on it after each response, so tasks finish.
const taskStores = new WeakMap<Env, TaskObjectStore>();
function taskStoreOf(env: Env): TaskObjectStore {
  let store = taskStores.get(env);
  if (store === undefined) {
    store = new TaskObjectStore(env.MCP_TASKS, {
      ...(env.TASK_LEASE_MS === undefined ? {} : { leaseMs: Number(env.TASK_LEASE_MS) }),
    });
    taskStores.set(env, store);
  }
  return store;
}

/** The server of one isolate, its state on the platform. */
export function serverFor(env: Env) {
  return buildServer({
    taskStore: taskStoreOf(env),
    requestStateSecret: env.REQUEST_STATE_SECRET,
    nonceStore: new DurableObjectNonceStore(env.MCP_NONCES),
  });
}

export const McpSession = defineMcpSessionObject<Env>({ server: serverFor });
export const McpTasks = defineMcpTaskObject();
export const McpNonces = defineMcpNonceObject();

export default createMcpWorker<Env>({
  server: serverFor,
  sessions: 'MCP_SESSIONS',
  waitUntil: (env) => taskStoreOf(env).settled(),
});
