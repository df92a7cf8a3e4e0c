// A Streamable HTTP server with the tools the official conformance suite's tasks scenarios call (the
// io.modelcontextprotocol/tasks extension, 2026-07-28), built on @mcpkit/tasks with nothing scenario-specific in the
// packages: what apps/everything-server needs for those scenarios. `node --import tsx src/conformance-server.ts
// [--port 0]` prints `listening <url>` on stdout.

import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@mcpkit/server';
import { TaskServer } from '@mcpkit/tasks';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';

const portArg = process.argv.indexOf('--port');
const port = portArg === -1 ? 0 : Number(process.argv[portArg + 1]);

const server = new McpServer({ name: 'tasks-conformance', version: '1.0.0' });
const tasks = new TaskServer(server, {
  pollIntervalMs: 100,
  // The suite cancels, from a second client, a task made through a per-request opt-in: 2026-07-28 without auth binds
  // tasks to nobody (the default), the id being the capability.
  tools: { test_tool_with_task: { start: 'handler' } },
});

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const confirmSchema = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const } },
  required: ['confirm'],
};

server.registerTool(
  'greet',
  { inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const },
  ({ name }) => text(`Hello, ${name}!`),
);

server.registerTool(
  'slow_compute',
  {
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

server.registerTool(
  'confirm_delete',
  {
    inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] } as const,
    execution: { taskSupport: 'optional' },
  },
  async ({ filename }, ctx) => {
    const answer = await ctx.elicit({ message: `Delete ${filename}?`, requestedSchema: confirmSchema });
    return text(answer.action === 'accept' && answer.content?.confirm === true ? `deleted ${filename}` : 'kept');
  },
);

server.registerTool('multi_input', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
  const schema = { type: 'object' as const, properties: { name: { type: 'string' as const } } };
  const [first, second] = await Promise.all([
    ctx.elicit({ message: 'First name?', requestedSchema: schema }),
    ctx.elicit({ message: 'Second name?', requestedSchema: schema }),
  ]);
  return text(`${String(first.content?.name)} and ${String(second.content?.name)}`);
});

// A tool error: the task completes with isError (SEP-2663: `failed` is for protocol errors).
server.registerTool('failing_job', { execution: { taskSupport: 'required' } }, () => {
  throw new Error('the job failed');
});

server.registerTool('protocol_error_job', { execution: { taskSupport: 'required' } }, async () => {
  const { JsonRpcError } = await import('@mcpkit/jsonrpc-core');
  throw new JsonRpcError(-32603, 'internal failure in the job');
});

// Gathers input with multi round-trip requests first, then goes on as a task.
server.registerTool('test_tool_with_task', { execution: { taskSupport: 'required' } }, async (_args, ctx) => {
  const answer = await ctx.elicit({
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  return tasks.runAsTask(ctx, async () => text(`Hello, ${String(answer.content?.name)}!`));
});

await tasks.ready;
const http = await listen(createStreamableHttpHandler(server), { port, host: '127.0.0.1' });
process.stdout.write(`listening ${http.url.href}\n`);
