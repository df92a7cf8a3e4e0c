import {
  isJsonObject,
  JsonRpcError,
  JsonRpcErrorCode,
  type JsonRpcParams,
  type JsonRpcRequest,
  toErrorObject,
} from '@mcpkit/jsonrpc-core';
import { type CallToolResult, invalidParamsError, TASKS_EXTENSION_ID } from '@mcpkit/protocol';
import type { McpToolServer, Server, ServerExtension, ServerMiddleware, ServerRequestContext } from '@mcpkit/server';
import { InMemoryTaskStore } from '../memory-store';
import { newTaskId } from '../task-ids';
import type { TaskPatch, TaskRecord } from '../task-record';
import type { TaskStore } from '../task-store';
import { detailedModernTask } from '../task-wire';
import { TASK_ERAS } from './eras/task-eras';
import { storeRefusal } from './errors';
import { defaultIdentity, type IdentityOf, type Requestor } from './identity';
import { RunningTask } from './running-task';
import { TaskBus } from './task-bus';
import { type TaskMethodsContext, taskMethods } from './task-methods';
import type { TasksServerOptions, TaskToolOptions } from './task-server-options';

const MIN_TTL_MS = 1_000;

/** The params kept with a task: what the handler needs to run again (the task and MRTR fields dropped). */
function storedParams(params: Record<string, unknown>): Record<string, unknown> {
  const { task: _task, inputResponses: _responses, requestState: _state, ...kept } = params;
  return kept;
}

function firstText(result: CallToolResult): string {
  for (const block of result.content ?? []) if (block.type === 'text') return block.text;
  return 'the tool reported an error';
}

/** `result` without a capability key (the other era's tasks vocabulary). */
function withoutCapability(result: unknown, key: 'tasks' | 'extensions'): unknown {
  if (!isJsonObject(result) || !isJsonObject(result.capabilities)) return result;
  const capabilities: Record<string, unknown> = { ...result.capabilities };
  if (key === 'tasks') delete capabilities.tasks;
  else if (isJsonObject(capabilities.extensions)) {
    const extensions = { ...capabilities.extensions };
    delete extensions[TASKS_EXTENSION_ID];
    if (Object.keys(extensions).length === 0) delete capabilities.extensions;
    else capabilities.extensions = extensions;
  }
  return { ...result, capabilities };
}

// How a `TasksServer` becomes an extension: defined inside the class (it reads the instance's private state) and
// shared by `tasks()` and the constructor. `adopting` tells a constructor called by `tasks()`'s install that the
// extension is being installed already.
let extensionOf: (
  existing: TasksServer | undefined,
  options: TasksServerOptions,
) => ServerExtension<TasksServer, McpToolServer>;
let adopting = false;

/**
 * The tasks extension for `McpToolServer.extend` / `McpServer.extend`: returns the `TasksServer` it installs.
 *
 * @example
 * const taskServer = server.extend(tasks({ store: await SqliteTaskStore.open('./tasks.db') }));
 * await taskServer.ready;
 */
export function tasks(options: TasksServerOptions = {}): ServerExtension<TasksServer, McpToolServer> {
  return extensionOf(undefined, options);
}

/**
 * Tasks on an `McpServer`, in both eras, from one definition: 2025-11-25 task-augmented `tools/call` (`tasks/get`,
 * `tasks/result`, `tasks/list`, `tasks/cancel`, `notifications/tasks/status`) and the 2026-07-28 extension
 * `io.modelcontextprotocol/tasks` (`resultType: "task"`, `tasks/get`, `tasks/update`, `tasks/cancel`,
 * `notifications/tasks` on listen streams). A tool opts in with `execution: { taskSupport }`; its handler is the same
 * whether it runs inline or as a task — `ctx.progress`, `ctx.log`, `ctx.elicit` / `createMessage` (which put the task
 * in `input_required`), `ctx.signal` (aborted by `tasks/cancel`), and `ctx.get('task')?.setStatusMessage(…)`.
 *
 * @example
 * const server = new McpServer({ name: 'builds', version: '1.0.0' });
 * const taskServer = server.extend(tasks({ store: await SqliteTaskStore.open('./tasks.db') }));
 * server.registerTool('build', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
 *   for (let step = 1; step <= 3; step++) {
 *     await ctx.get('task')?.setStatusMessage(`step ${step} of 3`);
 *     await ctx.progress(step, 3);
 *   }
 *   return { content: [{ type: 'text', text: 'built' }] };
 * });
 * await taskServer.ready;
 */
export class TasksServer {
  readonly store: TaskStore;
  readonly instanceId: string;
  /** Settles once unfinished tasks of a previous process were resumed or failed (`recover`). */
  readonly ready: Promise<void>;
  readonly #mcp: McpToolServer;
  readonly #server: Server;
  readonly #identity: IdentityOf;
  readonly #tools: Record<string, TaskToolOptions>;
  readonly #defaultTtlMs: number;
  readonly #maxTtlMs: number;
  readonly #pollIntervalMs: number;
  readonly #maxLive: number;
  readonly #listPageSize: number;
  readonly #notifyStatus: boolean;
  readonly #now: () => number;
  readonly #onError: ((error: Error) => void) | undefined;
  readonly #running = new Map<string, RunningTask>();
  readonly #bus: TaskBus | undefined;
  readonly #resuming = new Map<string, TaskRecord>();

  constructor(mcp: McpToolServer, options: TasksServerOptions = {}) {
    this.#mcp = mcp;
    this.#server = mcp.server;
    this.store = options.store ?? new InMemoryTaskStore();
    this.instanceId = options.instanceId ?? newTaskId();
    this.#identity = options.identity ?? defaultIdentity;
    this.#tools = options.tools ?? {};
    this.#maxTtlMs = options.maxTtlMs ?? 24 * 60 * 60_000;
    this.#defaultTtlMs = Math.min(options.defaultTtlMs ?? 60 * 60_000, this.#maxTtlMs);
    this.#pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.#maxLive = options.maxLiveTasksPerRequestor ?? 100;
    this.#listPageSize = options.listPageSize ?? 50;
    this.#notifyStatus = options.statusNotifications !== false;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError;
    for (const [name, value] of [
      ['maxTtlMs', this.#maxTtlMs],
      ['pollIntervalMs', this.#pollIntervalMs],
      ['maxLiveTasksPerRequestor', this.#maxLive],
      ['listPageSize', this.#listPageSize],
    ] as const) {
      if (!Number.isInteger(value) || value < 1) {
        throw new RangeError(`TasksServer: ${name} must be a positive integer; got ${value}`);
      }
    }
    this.#server.registerCapabilities({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
    this.#bus =
      options.bus === undefined
        ? undefined
        : new TaskBus(
            options.bus,
            this.instanceId,
            {
              cancel: (taskId) => this.#abort(taskId, new Error(`Task ${taskId} was cancelled`)),
              answer: (taskId, responses) => void this.#answer(taskId, responses),
              status: (record) => this.#announceStreams(record),
            },
            (error) => this.#report(error),
          );
    const recovered = options.recover === false ? Promise.resolve() : this.#recover();
    this.ready = this.#bus === undefined ? recovered : Promise.all([recovered, this.#bus.ready]).then(() => undefined);
    // Constructed by `tasks()`'s install, the extension is being installed already; constructed directly (the older
    // shape), it installs itself the same way, through the public `extend`.
    if (adopting) adopting = false;
    else mcp.extend(extensionOf(this, options));
  }

  static {
    extensionOf = (existing, options) => {
      let live = existing;
      const now = (): TasksServer => {
        if (live === undefined) {
          throw new JsonRpcError(JsonRpcErrorCode.InternalError, 'The tasks extension is not installed yet');
        }
        return live;
      };
      const methods: TaskMethodsContext = {
        owned: (taskId, ctx) => now().#owned(taskId, ctx),
        owner: (ctx) => now().#owner(ctx),
        running: (taskId) => now().#running.get(taskId),
        cancel: (record) => now().#cancel(record),
        get answerElsewhere() {
          const bus = now().#bus;
          return bus === undefined
            ? undefined
            : (taskId: string, responses: Record<string, unknown>) => bus.answer(taskId, responses);
        },
        inputsChanged: (task) => now().#inputsChanged(task),
        get store() {
          return now().store;
        },
        get listPageSize() {
          return now().#listPageSize;
        },
        get pollIntervalMs() {
          return now().#pollIntervalMs;
        },
      };
      return {
        id: TASKS_EXTENSION_ID,
        declaration: {},
        methods: taskMethods(methods),
        // Its middleware sees only the methods tasks take part in: the calls it may turn into tasks, and the two
        // results whose capabilities it trims to the era's vocabulary.
        middleware: {
          methods: ['tools/call', 'initialize', 'server/discover'],
          middleware: (ctx, next) => now().#middleware(ctx, next),
        },
        install: ({ host }) => {
          if (live !== undefined) return live;
          adopting = true;
          try {
            live = new TasksServer(host, options);
          } finally {
            adopting = false;
          }
          return live;
        },
      };
    };
  }

  /** How many tasks this process is running now. */
  get running(): number {
    return this.#running.size;
  }

  /**
   * Turns the rest of a `tools/call` handler into a task and answers the call with it at once (2026-07-28, when the
   * client declared the extension; otherwise — and inside a task already — `work` just runs inline). For tools with
   * `start: 'handler'` that gather input first (multi round-trip), then go on asynchronously.
   *
   * @example
   * server.registerTool('delete_all', { execution: { taskSupport: 'required' } }, async (_args, ctx) => {
   *   const answer = await ctx.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
   *   return taskServer.runAsTask(ctx, async () => ({ content: [{ type: 'text', text: `${answer.action}: deleted` }] }));
   * });
   */
  async runAsTask(
    ctx: ServerRequestContext,
    work: (ctx: ServerRequestContext) => CallToolResult | Promise<CallToolResult>,
  ): Promise<CallToolResult> {
    const inline =
      ctx.get('task') !== undefined || ctx.method !== 'tools/call' || !TASK_ERAS[ctx.era].mayRunAsTask(ctx);
    if (inline) return work(ctx);
    return (await this.#start(ctx, () => work(ctx))) as unknown as CallToolResult;
  }

  /** Stops accepting work from this object's tasks: aborts the handlers this process runs (they stay unfinished). */
  async close(): Promise<void> {
    for (const task of this.#running.values()) task.controller.abort(new Error('The task server closed'));
    this.#running.clear();
    await this.#bus?.close();
  }

  // ---- tools/call ----

  // Around every request of the server: not an async function, so a request that passes through costs no frame.
  readonly #middleware: ServerMiddleware = (ctx, next) => {
    if (ctx.kind !== 'request') return next();
    switch (ctx.method) {
      case 'tools/call':
        return this.#toolsCall(ctx, next);
      // Each era advertises its own vocabulary: 2025-11-25 `capabilities.tasks`, 2026-07-28 the extension (SEP-2663
      // forbids the legacy capability where the extension exists).
      case 'initialize':
        return next().then((result) => withoutCapability(result, 'extensions'));
      case 'server/discover':
        return next().then((result) => withoutCapability(result, 'tasks'));
      default:
        return next();
    }
  };

  #toolsCall(ctx: ServerRequestContext, next: () => Promise<unknown>): unknown {
    const resumed = this.#resuming.get(String(ctx.requestId));
    if (resumed !== undefined) {
      this.#resuming.delete(String(ctx.requestId));
      this.#run(ctx, resumed, next);
      return TASK_ERAS[resumed.era].created(resumed);
    }
    const params = ctx.params ?? {};
    const name = params.name;
    const tool = typeof name === 'string' ? this.#mcp.getTool(name) : undefined;
    if (tool === undefined) return next();
    const support = tool.execution?.taskSupport ?? 'forbidden';
    const startsInHandler = this.#tools[name as string]?.start === 'handler';
    return TASK_ERAS[ctx.era].callMode(ctx, support, startsInHandler) === 'task' ? this.#start(ctx, next) : next();
  }

  /** Creates the task (durably: `tasks/get` finds it before the answer goes out) and runs `run` as it. */
  async #start(ctx: ServerRequestContext, run: () => unknown): Promise<Record<string, unknown>> {
    const params = ctx.params ?? {};
    const ttlMs = this.#ttl(TASK_ERAS[ctx.era].requestedTtl(params));
    const now = this.#now();
    const record: TaskRecord = {
      taskId: newTaskId(),
      owner: this.#owner(ctx) ?? null,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      expiresAt: now + ttlMs,
      pollIntervalMs: this.#pollIntervalMs,
      era: ctx.era,
      request: { method: 'tools/call', params: storedParams(params) },
      context: { protocolVersion: ctx.protocolVersion, clientCapabilities: ctx.clientCapabilities },
      instance: this.instanceId,
    };
    try {
      await this.store.create(record, { maxLivePerOwner: this.#maxLive });
    } catch (error) {
      throw storeRefusal(error);
    }
    this.#run(ctx, record, run);
    return TASK_ERAS[record.era].created(record);
  }

  /** Runs the handler detached from its request: its signal, notifications and asks go to the task. */
  #run(ctx: ServerRequestContext, record: TaskRecord, run: () => unknown): void {
    const taskId = record.taskId;
    const rules = TASK_ERAS[record.era];
    const how = { era: record.era, session: rules.session(ctx), deliversAsks: rules.deliversAsks };
    const task = new RunningTask(taskId, how, {
      inputsChanged: (changed) => void this.#inputsChanged(changed),
      error: (error) => this.#report(error),
    });
    this.#running.set(taskId, task);
    ctx.set('task', { taskId, setStatusMessage: (message) => this.#setStatusMessage(taskId, message) });
    ctx.rebind({
      signal: task.controller.signal,
      notify: (method, params) => this.#notifyFromHandler(task, method, params),
      ask: (input) => task.ask(input),
    });
    let outcome: Promise<unknown>;
    try {
      outcome = Promise.resolve(run());
    } catch (error) {
      outcome = Promise.reject(error);
    }
    outcome.then(
      (result) => this.#complete(task, result),
      (error) =>
        this.#settle(task, {
          status: 'failed',
          statusMessage: toErrorObject(error).message,
          error: toErrorObject(error),
        }),
    );
  }

  #notifyFromHandler(task: RunningTask, method: string, params: JsonRpcParams | undefined): Promise<void> {
    return TASK_ERAS[task.era].notify(task, method, params, (text) => this.#setStatusMessage(task.taskId, text));
  }

  async #complete(task: RunningTask, result: unknown): Promise<void> {
    if (!isJsonObject(result)) {
      await this.#settle(task, {
        status: 'failed',
        statusMessage: 'The tool returned no result object',
        error: { code: JsonRpcErrorCode.InternalError, message: 'The tool returned no result object' },
      });
      return;
    }
    const toolResult = result as unknown as CallToolResult;
    const failed = TASK_ERAS[task.era].failed(toolResult);
    await this.#settle(task, {
      status: failed ? 'failed' : 'completed',
      statusMessage: failed ? `Tool execution failed: ${firstText(toolResult)}` : undefined,
      result,
    });
  }

  /** Moves a task to a terminal status (ignored when it is terminal already: a cancel won) and tells the client. */
  async #settle(task: RunningTask, patch: TaskPatch): Promise<void> {
    this.#running.delete(task.taskId);
    try {
      const { record, applied } = await this.store.update(task.taskId, {
        ...patch,
        inputRequests: undefined,
        inputResponses: undefined,
        lastUpdatedAt: this.#now(),
      });
      if (applied && record !== undefined) this.#announce(record, task);
    } catch (error) {
      this.#report(error);
    } finally {
      task.finish(new Error(`Task ${task.taskId} ended`));
    }
  }

  /** `tasks/cancel`: cancelled before the answer goes out, the handler's signal aborted. */
  async #cancel(record: TaskRecord): Promise<TaskRecord | undefined> {
    const outcome = await this.store.update(record.taskId, {
      status: 'cancelled',
      statusMessage: 'The task was cancelled by request.',
      error: { code: JsonRpcErrorCode.InternalError, message: `Task ${record.taskId} was cancelled` },
      inputRequests: undefined,
      inputResponses: undefined,
      lastUpdatedAt: this.#now(),
    });
    const task = this.#abort(record.taskId, new Error(`Task ${record.taskId} was cancelled`));
    // Running on another instance: it hears of the cancel there.
    if (task === undefined) this.#bus?.cancel(record.taskId);
    if (outcome.applied && outcome.record !== undefined) this.#announce(outcome.record, task);
    return outcome.record;
  }

  /** Aborts the handler of a task this process runs; the task it was, if any. */
  #abort(taskId: string, reason: Error): RunningTask | undefined {
    const task = this.#running.get(taskId);
    if (task === undefined) return undefined;
    this.#running.delete(taskId);
    task.controller.abort(reason);
    task.finish(reason);
    return task;
  }

  /** Answers given on another instance (`tasks/update`) for a task this process runs. */
  async #answer(taskId: string, responses: Record<string, unknown>): Promise<void> {
    const task = this.#running.get(taskId);
    if (task === undefined) return;
    let answered = false;
    for (const [key, value] of Object.entries(responses)) answered = task.answer(key, value) || answered;
    if (answered) await this.#inputsChanged(task);
  }

  /** The task's unanswered input requests changed: `input_required` with them, or back to `working`. */
  async #inputsChanged(task: RunningTask): Promise<void> {
    const waiting = task.hasPendingInput;
    try {
      const { record, applied } = await this.store.update(task.taskId, {
        status: waiting ? 'input_required' : 'working',
        inputRequests: waiting ? task.inputRequests : undefined,
        lastUpdatedAt: this.#now(),
      });
      if (applied && record !== undefined) this.#announce(record, task);
    } catch (error) {
      this.#report(error);
    }
  }

  async #setStatusMessage(taskId: string, statusMessage: string): Promise<void> {
    const { record, applied } = await this.store.update(taskId, { statusMessage, lastUpdatedAt: this.#now() });
    if (applied && record !== undefined) this.#announce(record, this.#running.get(taskId));
  }

  /** Status notifications: 2025-11-25 to the creating session; 2026-07-28 to listen streams that asked, owner only. */
  #announce(record: TaskRecord, task: RunningTask | undefined): void {
    if (!this.#notifyStatus) return;
    const rules = TASK_ERAS[record.era];
    rules.announceToSession(record, task, (promise) => promise.catch((error) => this.#report(error)));
    this.#announceStreams(record);
    // Listen streams held by other instances.
    if (rules.sharesStatus) this.#bus?.status(record);
  }

  /** 2026-07-28: `notifications/tasks` to the listen streams held here that asked for the task, owner only. */
  #announceStreams(record: TaskRecord): void {
    if (!this.#notifyStatus) return;
    const send = (promise: Promise<void>) => promise.catch((error) => this.#report(error));
    let detailed: Record<string, unknown> | undefined;
    for (const stream of this.#server.listenStreams) {
      if (stream.filter.taskIds?.includes(record.taskId) !== true) continue;
      const owner = this.#identity({ auth: stream.info.auth, session: stream.session, era: 'modern' }) ?? null;
      if (owner !== record.owner) continue;
      detailed ??= detailedModernTask(record);
      send(stream.send('notifications/tasks', detailed));
    }
  }

  // ---- lookups and policy ----

  #owner(ctx: ServerRequestContext): string | undefined {
    const requestor: Requestor = { auth: ctx.auth, session: ctx.session, era: ctx.era };
    return this.#identity(requestor);
  }

  /** The task `taskId` if this requestor owns it; anything else is "not found". */
  async #owned(taskId: unknown, ctx: ServerRequestContext): Promise<TaskRecord | undefined> {
    if (typeof taskId !== 'string' || taskId.length === 0) {
      throw invalidParamsError(`${ctx.method} needs params.taskId (a non-empty string)`, { taskId });
    }
    const record = await this.store.get(taskId);
    if (record === undefined || record.owner !== (this.#owner(ctx) ?? null)) return undefined;
    return record;
  }

  /** The retention granted: the requested one (2025-11-25 `params.task.ttl`) within policy, else the default. */
  #ttl(requested: unknown): number {
    if (requested === undefined) return this.#defaultTtlMs;
    if (typeof requested !== 'number' || !Number.isInteger(requested) || requested < 0) {
      throw invalidParamsError('params.task.ttl must be a non-negative integer (milliseconds)', { ttl: requested });
    }
    return Math.max(MIN_TTL_MS, Math.min(requested, this.#maxTtlMs));
  }

  // ---- restart ----

  /** Unfinished tasks of a previous process: resumable ones run again, the others read `failed`, saying why. */
  async #recover(): Promise<void> {
    let orphans: TaskRecord[];
    try {
      orphans = await this.store.unfinished();
    } catch (error) {
      this.#report(error);
      return;
    }
    for (const record of orphans) {
      if (this.#running.has(record.taskId)) continue;
      const name = record.request.params.name;
      const resumable =
        typeof name === 'string' && this.#tools[name]?.resumable === true && this.#mcp.getTool(name) !== undefined;
      try {
        if (resumable) await this.#resume(record);
        else {
          const message = 'The server restarted while this task was running, so its work was lost; call the tool again';
          const { record: failed, applied } = await this.store.update(record.taskId, {
            status: 'failed',
            statusMessage: message,
            error: { code: JsonRpcErrorCode.InternalError, message, data: { reason: 'server_restarted' } },
            inputRequests: undefined,
            inputResponses: undefined,
            lastUpdatedAt: this.#now(),
          });
          if (applied && failed !== undefined) this.#announce(failed, undefined);
        }
      } catch (error) {
        this.#report(error);
      }
    }
  }

  /** Runs a resumable task's handler again, through the server's dispatcher (era rules, middleware, the tool). */
  async #resume(record: TaskRecord): Promise<void> {
    const { record: working } = await this.store.update(record.taskId, {
      status: 'working',
      statusMessage: 'Resumed after a server restart',
      inputRequests: undefined,
      inputResponses: undefined,
      instance: this.instanceId,
      lastUpdatedAt: this.#now(),
    });
    if (working === undefined) return;
    const requestId = `mcpkit-tasks-resume:${record.taskId}`;
    const { params, session } = TASK_ERAS[record.era].resumed(this.#server, record);
    const request: JsonRpcRequest = { jsonrpc: '2.0', id: requestId, method: 'tools/call', params };
    this.#resuming.set(requestId, working);
    this.#server.handle(request, { session, era: record.era }).then(
      (response) => {
        this.#resuming.delete(requestId);
        if (response !== undefined && 'error' in response) {
          this.#report(new JsonRpcError(response.error.code, response.error.message, response.error.data));
        }
      },
      (error) => {
        this.#resuming.delete(requestId);
        this.#report(error);
      },
    );
  }

  #report(error: unknown): void {
    const report = this.#onError ?? this.#server.onerror;
    try {
      report?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A throwing error handler must not break a task.
    }
  }
}

/** @deprecated Renamed `TasksServer` (one rule for both sides: `TasksServer` / `TasksClient`); goes in the next minor. */
export const TaskServer = TasksServer;
/** @deprecated Renamed `TasksServer`. */
export type TaskServer = TasksServer;
