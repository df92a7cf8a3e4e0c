import type { ServerSession } from '@mcpkit/server';

/** Tasks whose status the bridge relays at once, at most (the oldest is forgotten past it). */
const MAX_TASKS = 1_000;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * Which host session created each 2025-11-25 task, so the upstream's `notifications/tasks/status` reach that host
 * alone (a shared upstream serves several). Forgotten once the task ends. 2026-07-28 hosts follow tasks on listen
 * streams the bridge does not relay: they poll `tasks/get`, as the extension allows.
 */
export class TaskSessions {
  readonly #sessions = new Map<string, ServerSession>();

  created(taskId: string | undefined, session: ServerSession | undefined): void {
    if (taskId === undefined || session === undefined) return;
    if (this.#sessions.size >= MAX_TASKS) {
      const [oldest] = this.#sessions.keys();
      if (oldest !== undefined) this.#sessions.delete(oldest);
    }
    this.#sessions.set(taskId, session);
  }

  /** An upstream status notification: passed to the session of its task. */
  status(params: unknown): void {
    const { taskId, status } = (params ?? {}) as { taskId?: unknown; status?: unknown };
    if (typeof taskId !== 'string') return;
    const session = this.#sessions.get(taskId);
    if (session === undefined) return;
    if (typeof status === 'string' && TERMINAL.has(status)) this.#sessions.delete(taskId);
    void session.notify('notifications/tasks/status', params as Record<string, unknown>).catch(() => {});
  }
}
