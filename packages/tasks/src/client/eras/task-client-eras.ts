// What tasks do differently in each protocol era on the client, behind one object per era: 2025-11-25 task-augmented
// requests (`params.task`, `tasks/result` blocks and carries the input requests, `tasks/list`, progress by token, the
// client may itself run task-augmented sampling and elicitation) and the 2026-07-28 extension (`resultType: "task"`,
// status on a listen stream, input answered with `tasks/update`, no `tasks/list`). `TasksClient`, `TaskHandle` and
// the receiver ask the object of the connection's era; they do not test the era themselves.
import type { Era } from '@mcpkit/protocol';

/** One era's rules of tasks on the client. */
export interface TaskClientEraRules {
  /** Whether a `tools/call` may ask for a task itself (`params.task`, when the server declares task-augmented calls). */
  readonly augmentsCalls: boolean;
  /** Whether progress of a task comes as `notifications/progress` to the call's token. */
  readonly progressByToken: boolean;
  /** The task a `tools/call` answered with, if it made one. */
  createdTask(raw: Record<string, unknown>): unknown;
  /** Whether `tasks/list` exists. */
  readonly lists: boolean;
  /** Whether status comes on a `subscriptions/listen` stream (else by status notifications and polling). */
  readonly listensForStatus: boolean;
  /** Whether `tasks/result` blocks until the end and carries the task's input requests (else `tasks/get` + update). */
  readonly resultBlocks: boolean;
  /** Whether the server may ask this client for task-augmented sampling or elicitation. */
  readonly receivesTasks: boolean;
}

const legacyRules: TaskClientEraRules = {
  augmentsCalls: true,
  progressByToken: true,
  createdTask: (raw) => raw.task,
  lists: true,
  listensForStatus: false,
  resultBlocks: true,
  receivesTasks: true,
};

const modernRules: TaskClientEraRules = {
  augmentsCalls: false,
  progressByToken: false,
  createdTask: (raw) => (raw.resultType === 'task' ? raw : undefined),
  lists: false,
  listensForStatus: true,
  resultBlocks: false,
  receivesTasks: false,
};

const RULES: Readonly<Record<Era, TaskClientEraRules>> = { legacy: legacyRules, modern: modernRules };

/** The rules of the connection's era; before one is negotiated, the legacy era's (what a first call would speak). */
export function taskClientEra(era: Era | undefined): TaskClientEraRules {
  return era === undefined ? legacyRules : RULES[era];
}
