import { setTimeout as sleep } from 'node:timers/promises';
import { JsonRpcError, JsonRpcErrorCode } from '@mcpkit/jsonrpc-core';
import type { McpServer } from '@mcpkit/server';
import { TaskServer } from '@mcpkit/tasks';

// The tools the suite's `tasks-*` scenarios call (the 2026-07-28 extension io.modelcontextprotocol/tasks, SEP-2663),
// served by @mcpkit/tasks on the server's extension seam: what those scenarios judge (CreateTaskResult, tasks/get,
// tasks/update, tasks/cancel, the -32021 refusals, Mcp-Name checks) is TaskServer's own behaviour. The tools only give
// the suite something to run. The same tools as apps/tasks-demo/src/conformance-server.ts.

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** Registers the tasks tools and a `TaskServer` (in memory) on `server`; returns the `TaskServer`. */
export function registerTasksScenarios(server: McpServer): TaskServer {
  const tasks = new TaskServer(server, {
    // The suite polls tasks/get; a short interval keeps its scenarios quick.
    pollIntervalMs: 100,
    // A fresh in-memory store has nothing a previous process left to recover.
    recover: false,
    // test_tool_with_task gathers its input with multi round-trip requests first, then goes on as a task.
    tools: { test_tool_with_task: { start: 'handler' } },
  });

  // tasks-lifecycle, tasks-capability-negotiation: a tool that never runs as a task.
  server.registerTool(
    'greet',
    {
      description: 'Greets by name (never a task)',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const,
    },
    ({ name }) => text(`Hello, ${name}!`),
  );

  // tasks-lifecycle, tasks-wire-fields, tasks-request-headers, …: a task the suite polls and cancels.
  server.registerTool(
    'slow_compute',
    {
      description: 'Sleeps for `seconds`, as a task when the client supports tasks (cancellable)',
      inputSchema: {
        type: 'object',
        properties: { seconds: { type: 'number' }, label: { type: 'string' } },
        required: ['seconds'],
      } as const,
      execution: { taskSupport: 'optional' },
    },
    async ({ seconds, label }, ctx) => {
      await sleep(seconds * 1000, undefined, { signal: ctx.signal });
      return text(`computed ${label ?? ''} in ${seconds}s`);
    },
  );

  // tasks-mrtr-input: the task goes input_required; tasks/update answers it.
  server.registerTool(
    'confirm_delete',
    {
      description: 'Asks for a confirmation before it deletes `filename`',
      inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] } as const,
      execution: { taskSupport: 'optional' },
    },
    async ({ filename }, ctx) => {
      const answer = await ctx.elicit({
        message: `Delete ${filename}?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      });
      return text(answer.action === 'accept' && answer.content?.confirm === true ? `deleted ${filename}` : 'kept');
    },
  );

  // tasks-mrtr-input: two questions pending at once.
  server.registerTool(
    'multi_input',
    { description: 'Asks two questions at once', execution: { taskSupport: 'optional' } },
    async (_args, ctx) => {
      const schema = { type: 'object' as const, properties: { name: { type: 'string' as const } } };
      const [first, second] = await Promise.all([
        ctx.elicit({ message: 'First name?', requestedSchema: schema }),
        ctx.elicit({ message: 'Second name?', requestedSchema: schema }),
      ]);
      return text(`${String(first.content?.name)} and ${String(second.content?.name)}`);
    },
  );

  // tasks-lifecycle, tasks-required-task-error: a tool error completes the task with isError (SEP-2663: `failed` is
  // for protocol errors); `required` refuses a client without the extension with -32021.
  server.registerTool(
    'failing_job',
    { description: 'Always fails with a tool error (task required)', execution: { taskSupport: 'required' } },
    () => {
      throw new Error('the job failed');
    },
  );

  // tasks-lifecycle: a protocol error ends the task `failed` with that error.
  server.registerTool(
    'protocol_error_job',
    { description: 'Always fails with a JSON-RPC error (task required)', execution: { taskSupport: 'required' } },
    () => {
      throw new JsonRpcError(JsonRpcErrorCode.InternalError, 'internal failure in the job');
    },
  );

  // tasks-mrtr-composition: asks user_name by input_required, then answers with a task whose result has the name.
  server.registerTool(
    'test_tool_with_task',
    { description: 'Asks for a name, then greets as a task', execution: { taskSupport: 'required' } },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
        { key: 'user_name' },
      );
      return tasks.runAsTask(ctx, async () => text(`Hello, ${String(answer.content?.name)}!`));
    },
  );

  return tasks;
}
