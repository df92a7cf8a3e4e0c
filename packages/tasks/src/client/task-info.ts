import { isJsonObject } from '@mcpkit/jsonrpc-core';
import type { InputRequests, TaskStatus } from '@mcpkit/protocol';

/** A task as the client sees it, the same in both eras (2025-11-25 `ttl`/`pollInterval` read as `…Ms`). */
export interface TaskInfo {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Retention from creation; `null` = unlimited. */
  ttlMs: number | null;
  /** The server's suggested polling interval. */
  pollIntervalMs?: number;
  /** 2026-07-28, `input_required`: what the server asks. */
  inputRequests?: InputRequests;
}

/** Reads a task of either vocabulary (a `tasks/get` result, a notification's params, a `CreateTaskResult`'s task). */
export function readTaskInfo(raw: unknown): TaskInfo | undefined {
  if (!isJsonObject(raw) || typeof raw.taskId !== 'string' || typeof raw.status !== 'string') return undefined;
  const info: TaskInfo = {
    taskId: raw.taskId,
    status: raw.status as TaskStatus,
    createdAt: String(raw.createdAt ?? ''),
    lastUpdatedAt: String(raw.lastUpdatedAt ?? raw.createdAt ?? ''),
    ttlMs: typeof raw.ttlMs === 'number' ? raw.ttlMs : typeof raw.ttl === 'number' ? raw.ttl : null,
  };
  if (typeof raw.statusMessage === 'string') info.statusMessage = raw.statusMessage;
  const poll = raw.pollIntervalMs ?? raw.pollInterval;
  if (typeof poll === 'number') info.pollIntervalMs = poll;
  if (isJsonObject(raw.inputRequests)) info.inputRequests = raw.inputRequests as InputRequests;
  return info;
}

/** Whether a task status is terminal. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
