import type { JsonRpcErrorObject } from '@mcpkit/jsonrpc-core';
import type { ClientCapabilities, Era, InputRequests, TaskStatus } from '@mcpkit/protocol';

/**
 * Which vocabulary a task speaks on the wire: 2025-11-25 core tasks, or the 2026-07-28 tasks extension. The era it was
 * created in: `Era` of @mcpkit/protocol, kept under this name.
 */
export type TaskEra = Era;

/** The statuses a task never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Whether `status` is terminal (`completed`, `failed`, `cancelled`). */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/**
 * A task as a {@link TaskStore} keeps it: plain JSON (numbers, strings, objects), so a store can serialise it
 * anywhere (SQLite, Redis) and another instance can read it. Times are epoch milliseconds.
 */
export interface TaskRecord {
  /** At least 128 bits from a CSPRNG, base64url (see `newTaskId`). */
  taskId: string;
  /** Who created it (see `TaskServerOptions.identity`); `null` when the request carried no identity. */
  owner: string | null;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  /** Retention from creation; `null` = unlimited. */
  ttlMs: number | null;
  /** `createdAt + ttlMs`, or `null`: after it the task is gone (stores sweep it, reads miss it). */
  expiresAt: number | null;
  pollIntervalMs?: number;
  /** The vocabulary of the request that created it. */
  era: TaskEra;
  /** The request that created it, as the handler needs it to run again (`_meta` kept: progress token, envelope). */
  request: { method: string; params: Record<string, unknown> };
  /** The protocol version and client capabilities the request was made with (a resumed handler runs with them). */
  context: { protocolVersion: string; clientCapabilities: ClientCapabilities };
  /** Terminal `completed` (and legacy `failed` with an `isError` tool result): the underlying request's result. */
  result?: Record<string, unknown>;
  /** Terminal `failed` (and `cancelled`): the JSON-RPC error the underlying request ended with. */
  error?: JsonRpcErrorObject;
  /** `input_required`: the input requests still unanswered, by key. */
  inputRequests?: InputRequests;
  /** Answers a client gave (`tasks/update`) that the running handler has not taken yet, by key. */
  inputResponses?: Record<string, unknown>;
  /** The process running it (`TaskServerOptions.instanceId`); a restart finds its own unfinished tasks by it. */
  instance?: string;
}

/** What may change on a task after it was created. */
export type TaskPatch = Partial<
  Pick<
    TaskRecord,
    | 'status'
    | 'statusMessage'
    | 'lastUpdatedAt'
    | 'pollIntervalMs'
    | 'result'
    | 'error'
    | 'inputRequests'
    | 'inputResponses'
    | 'instance'
  >
>;
