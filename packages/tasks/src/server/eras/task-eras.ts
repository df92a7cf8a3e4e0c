// What tasks do differently in each protocol era, behind one object per era: 2025-11-25 task-augmented requests
// (`params.task`, `capabilities.tasks`, status notifications to the creating session, an isError result is a failed
// task) and the 2026-07-28 extension io.modelcontextprotocol/tasks (`resultType: "task"`, the extension declared per
// request, status on listen streams, progress folded into the status message). `TasksServer` picks one per request
// (`ctx.era`) or per stored task (`record.era`) and asks it; it does not test the era itself.
import { isJsonObject, JsonRpcError, JsonRpcErrorCode, type JsonRpcParams } from '@mcpkit/jsonrpc-core';
import {
  type CallToolResult,
  type Era,
  hasCapability,
  missingRequiredClientCapabilityError,
  TASKS_EXTENSION_ID,
} from '@mcpkit/protocol';
import type { Server, ServerRequestContext, ServerSession } from '@mcpkit/server';
import type { TaskRecord } from '../../task-record';
import { legacyTask, modernTask } from '../../task-wire';
import type { RunningTask } from '../running-task';

/** How a `tools/call` runs: as a task, or as the plain call it is. */
export type CallMode = 'task' | 'inline';

/** One era's rules of tasks on the server. */
export interface TaskEraRules {
  /**
   * How a `tools/call` of a tool with `taskSupport` runs (throws when the era's rules refuse it). `startsInHandler`:
   * the tool makes itself a task with `runAsTask` (modern only).
   */
  callMode(ctx: ServerRequestContext, support: string, startsInHandler: boolean): CallMode;
  /** Whether `runAsTask` may turn the rest of a handler into a task in this request. */
  mayRunAsTask(ctx: ServerRequestContext): boolean;
  /** The retention the request asks for (2025-11-25 `params.task.ttl`), if it may ask. */
  requestedTtl(params: Record<string, unknown>): unknown;
  /** What the call is answered with once its task exists. */
  created(record: TaskRecord): Record<string, unknown>;
  /** The session a running task keeps for its status notifications and asks, if the era has one. */
  session(ctx: ServerRequestContext): ServerSession | undefined;
  /** A notification of the detached handler: where it goes (`setStatusMessage` for what becomes the status). */
  notify(
    task: RunningTask,
    method: string,
    params: JsonRpcParams | undefined,
    setStatusMessage: (text: string) => Promise<void>,
  ): Promise<void>;
  /** Whether a tool result settles its task as failed. */
  failed(result: CallToolResult): boolean;
  /** Tells the creating session a task's status (legacy), through `send`. */
  announceToSession(record: TaskRecord, task: RunningTask | undefined, send: (promise: Promise<void>) => void): void;
  /**
   * Whether a handler's ask goes out at once, over a `tasks/result` request waiting on the task (2025-11-25), rather
   * than waiting in the task's `inputRequests` for `tasks/get` (2026-07-28).
   */
  readonly deliversAsks: boolean;
  /** Whether a connection is an owner of its own: who asks from another session, even of the same client, is not it. */
  readonly sessionOwnsTasks: boolean;
  /** Whether other instances' listen streams may ask for this era's tasks (the bus shares status). */
  readonly sharesStatus: boolean;
  /** The request and session a task resumed after a restart runs again with. */
  resumed(server: Server, record: TaskRecord): { params: Record<string, unknown>; session: ServerSession | undefined };
}

function methodNotFound(message: string, data: Record<string, unknown>): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.MethodNotFound, message, data);
}

const legacyRules: TaskEraRules = {
  callMode(ctx, support) {
    const params = ctx.params ?? {};
    const name = params.name;
    const asked = ctx.protocolVersion === '2025-11-25' && params.task !== undefined && params.task !== null;
    const data = { method: 'tools/call', tool: name, taskSupport: support };
    if (asked && support === 'forbidden') {
      throw methodNotFound(
        `Tool '${name}' does not support task-augmented execution (execution.taskSupport is "forbidden"): call it without params.task`,
        data,
      );
    }
    if (!asked && support === 'required') {
      throw methodNotFound(
        ctx.protocolVersion === '2025-11-25'
          ? `Tool '${name}' requires task-augmented execution (execution.taskSupport is "required"): call it with params.task`
          : `Tool '${name}' runs only as a task, which ${ctx.protocolVersion} does not have: connect with 2025-11-25 or 2026-07-28`,
        data,
      );
    }
    return asked ? 'task' : 'inline';
  },
  // A 2025-11-25 task exists only when the caller asked for one in params.task.
  mayRunAsTask: () => false,
  requestedTtl: (params) => (params.task as { ttl?: unknown } | undefined)?.ttl,
  created: (record) => ({ task: legacyTask(record) }),
  session: (ctx) => ctx.session,
  notify: (task, method, params) => task.notify(method, params),
  // 2025-11-25: a tool result with isError is a failed task.
  failed: (result) => result.isError === true,
  announceToSession(record, task, send) {
    const session = task?.session;
    if (session?.connected === true && session.era === 'legacy') {
      send(session.notify('notifications/tasks/status', legacyTask(record) as unknown as JsonRpcParams));
    }
  },
  deliversAsks: true,
  sessionOwnsTasks: true,
  sharesStatus: false,
  resumed: (server, record) => ({
    params: { ...record.request.params, task: {} },
    // A stand-in for the session that created it (gone with the old process): the era rules need one, and the
    // server's legacy era opens it with what the task kept.
    session: server.openSession({
      protocolVersion: record.context.protocolVersion,
      clientCapabilities: record.context.clientCapabilities,
    }),
  }),
};

const declaresExtension = (ctx: ServerRequestContext) =>
  hasCapability(ctx.clientCapabilities, ['extensions', TASKS_EXTENSION_ID]);

const modernRules: TaskEraRules = {
  callMode(ctx, support, startsInHandler) {
    const declared = declaresExtension(ctx);
    if (support === 'required' && !declared) {
      throw missingRequiredClientCapabilityError(
        { extensions: { [TASKS_EXTENSION_ID]: {} } },
        `Tool '${String(ctx.params?.name)}' runs only as a task: declare the ${TASKS_EXTENSION_ID} extension in the request's client capabilities`,
      );
    }
    return support === 'forbidden' || !declared || startsInHandler ? 'inline' : 'task';
  },
  mayRunAsTask: declaresExtension,
  requestedTtl: () => undefined,
  created: (record) => ({ resultType: 'task', ...modernTask(record) }),
  session: () => undefined,
  notify(_task, method, params, setStatusMessage) {
    // 2026-07-28 has no stream for a task's request-scoped notifications once the call was answered: progress
    // becomes the task's statusMessage; log messages have nowhere to go.
    if (method !== 'notifications/progress' || !isJsonObject(params)) return Promise.resolve();
    const { progress, total, message } = params as { progress?: unknown; total?: unknown; message?: unknown };
    return setStatusMessage(
      typeof message === 'string' ? message : `${String(progress)}${typeof total === 'number' ? ` of ${total}` : ''}`,
    );
  },
  // 2026-07-28: a tool result is a completed task whatever it says (a failed task is a protocol error).
  failed: () => false,
  announceToSession: () => undefined,
  deliversAsks: false,
  // Stateless without auth: the unguessable task id is the capability.
  sessionOwnsTasks: false,
  sharesStatus: true,
  resumed: (_server, record) => ({ params: { ...record.request.params }, session: undefined }),
};

/** The rules of tasks in each era. */
export const TASK_ERAS: Readonly<Record<Era, TaskEraRules>> = { legacy: legacyRules, modern: modernRules };
