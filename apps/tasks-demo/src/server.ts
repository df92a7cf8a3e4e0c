// The tasks demo's server: two tools that run as tasks, their tasks kept in a SQLite file, so the process can be
// killed mid-task and started again. `node --import tsx src/server.ts --db ./tasks.db [--step-ms 400]`.

import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@mcpkit/server';
import { TaskServer } from '@mcpkit/tasks';
import { SqliteTaskStore } from '@mcpkit/tasks/sqlite';
import { redirectConsoleToStderr, StdioServerTransport } from '@mcpkit/transport-stdio';

redirectConsoleToStderr(); // stdout carries MCP only

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const stepMs = Number(option('step-ms', '400'));
const store = await SqliteTaskStore.open(option('db', 'tasks.db'));

const server = new McpServer({ name: 'tasks-demo', version: '1.0.0' });
const tasks = new TaskServer(server, {
  store,
  pollIntervalMs: Math.max(50, Math.round(stepMs / 2)),
  // One local user per stdio process: bind tasks to that user rather than to the session (the default without auth),
  // since a restarted server has new sessions and its client must find its tasks again. A networked server binds to
  // the authenticated principal instead (the default when requests carry auth).
  identity: () => 'local-user',
  // `build` may run again from the start after a restart; `report` may not (it would send the report twice).
  tools: { build: { resumable: true } },
});

server.registerTool(
  'build',
  {
    description: 'Builds in `steps` steps, asking halfway whether to go on',
    inputSchema: {
      type: 'object',
      properties: { steps: { type: 'integer', minimum: 2 } },
      required: ['steps'],
    } as const,
    execution: { taskSupport: 'optional' },
  },
  async ({ steps }, ctx) => {
    for (let step = 1; step <= steps; step++) {
      if (step === Math.ceil(steps / 2) + 1) {
        const answer = await ctx.elicit({
          message: `Halfway through (${step - 1} of ${steps} steps): go on?`,
          requestedSchema: { type: 'object', properties: { goOn: { type: 'boolean' } }, required: ['goOn'] },
        });
        if (answer.action !== 'accept' || answer.content?.goOn !== true) {
          return { content: [{ type: 'text', text: `Stopped after ${step - 1} of ${steps} steps.` }] };
        }
      }
      await ctx.get('task')?.setStatusMessage(`step ${step} of ${steps}`);
      await ctx.progress(step, steps, `step ${step} of ${steps}`);
      await sleep(stepMs, undefined, { signal: ctx.signal });
    }
    return { content: [{ type: 'text', text: `Built in ${steps} steps.` }] };
  },
);

server.registerTool(
  'report',
  { description: 'Sends a report (slowly); not safe to repeat', execution: { taskSupport: 'required' } },
  async (_args, ctx) => {
    await sleep(stepMs * 100, undefined, { signal: ctx.signal });
    return { content: [{ type: 'text', text: 'Report sent.' }] };
  },
);

await tasks.ready; // unfinished tasks of the previous process: `build` runs again, `report` reads failed
await server.connect(new StdioServerTransport());
// A killed process writes nothing more; one whose stdin ends leaves the same way, mid-task.
process.stdin.once('end', () => process.exit(0));
console.log(`tasks-demo: ready on stdio (${store.driver})`);
