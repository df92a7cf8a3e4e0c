// The 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) has no official JSON Schema: the core
// schema.json of 2026-07-28 leaves it out. These definitions are written from the SEP's text (and our notes in
// shared/spec/2026-07-28.md §10) so the wire check covers the extension's messages too. They are merged into the
// 2026-07-28 `$defs` under a `TasksExt` prefix; the checker finds the methods by their `method` const like any other.

type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });

const task: JsonSchema = {
  type: 'object',
  properties: {
    taskId: { type: 'string' },
    status: { enum: ['working', 'input_required', 'completed', 'failed', 'cancelled'] },
    statusMessage: { type: 'string' },
    createdAt: { type: 'string' },
    lastUpdatedAt: { type: 'string' },
    ttlMs: { type: ['integer', 'null'], minimum: 0 },
    pollIntervalMs: { type: 'integer', minimum: 0 },
  },
  required: ['taskId', 'status', 'createdAt', 'lastUpdatedAt', 'ttlMs'],
  // The 2025-11-25 names must not appear: a client keying on them would miss the TTL guidance.
  not: { anyOf: [{ required: ['ttl'] }, { required: ['pollInterval'] }, { required: ['requestState'] }] },
};

/** A task with its status-specific field (`tasks/get`, `notifications/tasks`). */
const none = (...keys: string[]): JsonSchema => ({ not: { anyOf: keys.map((key) => ({ required: [key] })) } });
const detailedTask: JsonSchema = {
  allOf: [
    ref('TasksExtTask'),
    {
      anyOf: [
        { properties: { status: { enum: ['working', 'cancelled'] } }, ...none('result', 'error') },
        {
          properties: { status: { const: 'input_required' }, inputRequests: ref('InputRequests') },
          required: ['inputRequests'],
          ...none('result', 'error'),
        },
        {
          properties: { status: { const: 'completed' }, result: ref('CallToolResult') },
          required: ['result'],
          ...none('error'),
        },
        { properties: { status: { const: 'failed' }, error: ref('Error') }, required: ['error'], ...none('result') },
      ],
    },
  ],
};

function request(method: string, params: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      jsonrpc: { const: '2.0' },
      id: ref('RequestId'),
      method: { const: method },
      params: { allOf: [ref('RequestParams'), params] },
    },
    required: ['jsonrpc', 'id', 'method', 'params'],
  };
}

const taskIdParams = { type: 'object', properties: { taskId: { type: 'string' } }, required: ['taskId'] };
const complete = { properties: { resultType: { const: 'complete' } }, required: ['resultType'] };
const emptyAck = {
  allOf: [
    ref('Result'),
    complete,
    { not: { anyOf: ['taskId', 'status', 'result', 'error', 'inputRequests'].map((key) => ({ required: [key] })) } },
  ],
};

/** The extension's definitions, to merge into the 2026-07-28 `$defs`. */
export const TASKS_EXTENSION_DEFS: Record<string, JsonSchema> = {
  TasksExtTask: task,
  TasksExtDetailedTask: detailedTask,
  /** `tools/call` answered with a task: flat, `resultType: "task"`, no status-specific fields. */
  TasksExtCreateTaskResult: {
    allOf: [
      ref('Result'),
      ref('TasksExtTask'),
      { properties: { resultType: { const: 'task' } }, required: ['resultType'] },
      {
        not: {
          anyOf: [
            { required: ['result'] },
            { required: ['error'] },
            { required: ['inputRequests'] },
            { required: ['task'] },
          ],
        },
      },
    ],
  },
  TasksExtGetTaskRequest: request('tasks/get', taskIdParams),
  TasksExtGetTaskResult: { allOf: [ref('Result'), complete, ref('TasksExtDetailedTask')] },
  TasksExtUpdateTaskRequest: request('tasks/update', {
    type: 'object',
    properties: { taskId: { type: 'string' }, inputResponses: ref('InputResponses') },
    required: ['taskId', 'inputResponses'],
  }),
  TasksExtUpdateTaskResult: emptyAck,
  TasksExtCancelTaskRequest: request('tasks/cancel', taskIdParams),
  TasksExtCancelTaskResult: emptyAck,
  TasksExtTaskNotification: {
    type: 'object',
    properties: {
      jsonrpc: { const: '2.0' },
      method: { const: 'notifications/tasks' },
      params: { allOf: [ref('NotificationParams'), ref('TasksExtDetailedTask')] },
    },
    required: ['jsonrpc', 'method', 'params'],
  },
};
