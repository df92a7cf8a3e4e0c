import type { CallOptions, Client, ClientExtension, ClientMiddleware } from '@mcpkit/client';
import { isJsonObject as isObject } from '@mcpkit/jsonrpc-core';
import {
  type CallToolRequestParams,
  type CallToolResult,
  hasCapability,
  type InputRequests,
  type InputResponses,
  TASKS_EXTENSION_ID,
} from '@mcpkit/protocol';
import { newTaskId } from '../task-ids';
import { taskClientEra } from './eras/task-client-eras';
import { TaskClientError } from './task-client-error';
import { TaskHandle, type TaskHandleHost } from './task-handle';
import { readTaskInfo, type TaskInfo } from './task-info';
import { installTaskReceiver, type TaskReceiverOptions } from './task-receiver';

/** Options of `TasksClient`. */
export interface TasksClientOptions {
  /** Polling interval when the server suggests none, in ms. Default 1 000. */
  defaultPollIntervalMs?: number;
  /** The shortest interval honoured when the server suggests one, in ms. Default 50. */
  minPollIntervalMs?: number;
  /** The longest interval honoured when the server suggests one, in ms. Default 30 000. */
  maxPollIntervalMs?: number;
  /**
   * 2025-11-25: also run the server's task-augmented `sampling/createMessage` and `elicitation/create` as tasks on
   * this client (declared as `capabilities.tasks` for the handlers it has). Default `true`; `false` to decline.
   */
  receiver?: boolean | TaskReceiverOptions;
}

/** Options of `callToolAsTask`. */
export interface TaskCallOptions
  extends Pick<CallOptions, 'signal' | 'timeoutMs' | 'meta' | 'clientCapabilities' | 'inputHandlers' | 'logLevel'> {
  /** 2025-11-25: the retention to ask for (`params.task.ttl`), in ms; the server may cut it. */
  ttlMs?: number;
  /**
   * Progress of the task for its whole life (2025-11-25: the server's `notifications/progress` keep coming after the
   * call returned the task; 2026-07-28 has no such stream: watch `onStatus` for its `statusMessage`).
   */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** One page of `list`. */
export interface TaskList {
  tasks: TaskInfo[];
  nextCursor?: string;
}

const TASKS_DECLARATION = { id: TASKS_EXTENSION_ID, resultTypes: ['task'] } as const;
let adopting = false;

/**
 * The tasks extension for `client.extend` (before `connect`): returns the `TasksClient` it installs.
 *
 * @example
 * const tasksClient = client.extend(tasks());
 * await client.connect(transport);
 * const task = await tasksClient.callToolAsTask({ name: 'build', arguments: {} });
 */
export function tasks(options: TasksClientOptions = {}): ClientExtension<TasksClient, Client> {
  return {
    ...TASKS_DECLARATION,
    install: ({ client }) => {
      adopting = true;
      try {
        return new TasksClient(client, options);
      } finally {
        adopting = false;
      }
    },
  };
}

/**
 * Tasks on an `@mcpkit/client` `Client`, with the same code against a 2025-11-25 server (task-augmented `tools/call`)
 * and a 2026-07-28 one (the `io.modelcontextprotocol/tasks` extension). Create it before `connect` (it declares the
 * extension and, for 2025-11-25 task-augmented sampling and elicitation, the `tasks` capability).
 *
 * @example
 * const client = new Client({ name: 'app', version: '1.0.0' }, { handlers: { elicitation: askUser } });
 * const tasksClient = client.extend(tasks());
 * await client.connect(transport);
 * const task = await tasksClient.callToolAsTask({ name: 'build', arguments: { target: 'web' } });
 * const result = await task.wait();
 */
export class TasksClient {
  readonly client: Client;
  readonly #handles = new Map<string, TaskHandle>();
  readonly #progress = new Map<string, NonNullable<TaskCallOptions['onProgress']>>();
  readonly #host: TaskHandleHost;
  /** The params and call options of this object's own `tools/call`s: those return the task; others are driven to the end. */
  readonly #own = new WeakSet<object>();
  /** 2025-11-25: tool name → `execution.taskSupport`, from `tools/list` (the spec forbids augmenting other tools). */
  #support: Map<string, string> | undefined;

  constructor(client: Client, options: TasksClientOptions = {}) {
    this.client = client;
    // Constructed by `tasks()`'s install, the extension is being installed already; constructed directly (the older
    // shape), it declares itself the same way, through the public `extend`.
    if (adopting) adopting = false;
    else client.extend(TASKS_DECLARATION);
    if (options.receiver !== false) {
      installTaskReceiver(client, options.receiver === true || options.receiver === undefined ? {} : options.receiver);
    }
    this.#host = {
      get rules() {
        return taskClientEra(client.era);
      },
      request: (method, params, callOptions) => client.request(method, params, callOptions),
      answerInputRequests: (inputRequests: InputRequests, signal, handlers): Promise<InputResponses> =>
        client.answerInputRequests(inputRequests, { forMethod: 'tools/call', signal, handlers }),
      listen: async (taskId) => {
        if (!hasCapability(client.serverCapabilities, ['extensions', TASKS_EXTENSION_ID])) return undefined;
        return client.subscribe({ taskIds: [taskId] }, () => undefined);
      },
      defaultPollIntervalMs: options.defaultPollIntervalMs ?? 1_000,
      minPollIntervalMs: options.minPollIntervalMs ?? 50,
      maxPollIntervalMs: options.maxPollIntervalMs ?? 30_000,
      forget: (handle) => {
        if (this.#handles.get(handle.taskId) === handle) this.#handles.delete(handle.taskId);
      },
    };
    client.use(this.#transparent);
    client.setNotificationHandler('notifications/tasks/status', (params) => this.#onTask(params));
    client.setNotificationHandler('notifications/tasks', (params) => this.#onTask(params));
    client.setNotificationHandler('notifications/progress', (params) => this.#onProgress(params));
  }

  /**
   * Calls a tool so that it may run as a task, and returns a handle to it. 2025-11-25: `tools/call` with
   * `params.task` when the server declares task-augmented calls; 2026-07-28: a `tools/call` the server may answer with
   * `resultType: "task"`. When the server runs the call inline instead (it cannot or need not make a task), the handle
   * holds the result already (`handle.immediate`), so the caller's code does not change.
   */
  async callToolAsTask(params: CallToolRequestParams, options: TaskCallOptions = {}): Promise<TaskHandle> {
    const client = this.client;
    const rules = taskClientEra(client.era);
    const augment =
      rules.augmentsCalls &&
      client.protocolVersion === '2025-11-25' &&
      hasCapability(client.serverCapabilities, ['tasks', 'requests', 'tools', 'call']) &&
      (await this.#taskSupport(params.name, options.signal)) !== 'forbidden';
    const request: Record<string, unknown> = { ...params };
    this.#own.add(request);
    if (augment) request.task = options.ttlMs === undefined ? {} : { ttl: options.ttlMs };
    let token: string | undefined;
    if (options.onProgress !== undefined && rules.progressByToken) {
      token = `task-progress-${newTaskId()}`;
      const meta = isObject(params._meta) ? params._meta : {};
      request._meta = { ...meta, progressToken: token };
      this.#progress.set(token, options.onProgress);
    }
    // Every round of the call (a 2026-07-28 input round retries with new params) is this object's own: its task is
    // returned, not driven to the end.
    const callOptions = {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      meta: options.meta,
      // 2026-07-28: what this one request declares and who answers its input rounds (a proxy passes its caller's).
      clientCapabilities: options.clientCapabilities,
      inputHandlers: options.inputHandlers,
      logLevel: options.logLevel,
    };
    this.#own.add(callOptions);
    let raw: Record<string, unknown>;
    try {
      raw = await client.request('tools/call', request, callOptions);
    } catch (error) {
      if (token !== undefined) this.#progress.delete(token);
      throw error;
    }
    const created = readTaskInfo(rules.createdTask(raw));
    if (created === undefined) {
      if (token !== undefined) this.#progress.delete(token);
      if (raw.resultType !== undefined && raw.resultType !== 'complete') {
        throw new TaskClientError('ERR_INVALID_TASK', `tools/call answered resultType ${String(raw.resultType)}`, {
          result: raw,
        });
      }
      const now = new Date().toISOString();
      const info: TaskInfo = { taskId: '', status: 'completed', createdAt: now, lastUpdatedAt: now, ttlMs: null };
      return new TaskHandle(this.#host, '', info, raw as unknown as CallToolResult);
    }
    const handle = new TaskHandle(this.#host, created.taskId, created);
    this.#handles.set(created.taskId, handle);
    if (token !== undefined) {
      const onProgress = this.#progress.get(token)!;
      // Progress of a finished task stops: the listener goes with the handle's last status.
      handle.onStatus((info) => {
        if (info.status === 'completed' || info.status === 'failed' || info.status === 'cancelled') {
          setTimeout(() => this.#progress.delete(token), 1_000);
        }
      });
      this.#progress.set(token, onProgress);
    }
    return handle;
  }

  /** A handle to a task known by id (for example one started before a restart of this client or of the server). */
  task(taskId: string): TaskHandle {
    let handle = this.#handles.get(taskId);
    if (handle === undefined) {
      handle = new TaskHandle(this.#host, taskId);
      this.#handles.set(taskId, handle);
    }
    return handle;
  }

  /**
   * One page of this requestor's tasks (`tasks/list`, 2025-11-25). 2026-07-28 has no such method (task ids are
   * capabilities, not listable): `TaskClientError` `ERR_NOT_IN_REVISION`.
   */
  async list(options: { cursor?: string; signal?: AbortSignal } = {}): Promise<TaskList> {
    if (!taskClientEra(this.client.era).lists) {
      throw new TaskClientError(
        'ERR_NOT_IN_REVISION',
        'tasks/list does not exist in 2026-07-28 (the tasks extension has none): keep the ids of the tasks you start',
        { protocolVersion: this.client.protocolVersion },
      );
    }
    const params: Record<string, unknown> = options.cursor === undefined ? {} : { cursor: options.cursor };
    const raw = await this.client.request('tasks/list', params, { signal: options.signal });
    const tasks = Array.isArray(raw.tasks) ? raw.tasks.map(readTaskInfo).filter((task) => task !== undefined) : [];
    const page: TaskList = { tasks: tasks as TaskInfo[] };
    if (typeof raw.nextCursor === 'string') page.nextCursor = raw.nextCursor;
    return page;
  }

  /**
   * A `tools/call` made some other way (`client.callTool`) that a 2026-07-28 server answered with a task: driven to
   * its end here, so the caller gets the tool's result as if the call had run inline (SEP-2663 suggests exactly this
   * for code written against the plain result).
   */
  readonly #transparent: ClientMiddleware = async (ctx, next) => {
    if (ctx.direction !== 'outbound' || ctx.method !== 'tools/call') return next();
    const result = await next();
    if (
      !isObject(result) ||
      result.resultType !== 'task' ||
      (ctx.params !== undefined && this.#own.has(ctx.params)) ||
      this.#own.has(ctx.options)
    ) {
      return result;
    }
    const info = readTaskInfo(result);
    if (info === undefined) return result;
    const handle = new TaskHandle(this.#host, info.taskId, info);
    this.#handles.set(info.taskId, handle);
    try {
      return await handle.wait({ signal: ctx.signal });
    } finally {
      handle.release();
    }
  };

  /** 2025-11-25: the tool's `execution.taskSupport` (default `forbidden`), listing the tools once if needed. */
  async #taskSupport(name: string, signal: CallOptions['signal']): Promise<string> {
    const known = (tools: readonly { name: string; execution?: { taskSupport?: string } }[] | undefined) => {
      if (tools === undefined) return;
      this.#support = new Map(tools.map((tool) => [tool.name, tool.execution?.taskSupport ?? 'forbidden']));
    };
    if (!this.#support?.has(name)) known(this.client.lists.tools);
    if (!this.#support?.has(name)) known(await this.client.listAllTools({ signal }));
    return this.#support?.get(name) ?? 'forbidden';
  }

  #onTask(params: unknown): void {
    const info = readTaskInfo(params);
    if (info === undefined) return;
    this.#handles.get(info.taskId)?.observe(info, params as Record<string, unknown>);
  }

  #onProgress(params: unknown): void {
    if (!isObject(params)) return;
    const token = params.progressToken;
    const listener = typeof token === 'string' ? this.#progress.get(token) : undefined;
    if (listener === undefined || typeof params.progress !== 'number') return;
    const update: { progress: number; total?: number; message?: string } = { progress: params.progress };
    if (typeof params.total === 'number') update.total = params.total;
    if (typeof params.message === 'string') update.message = params.message;
    listener(update);
  }
}
