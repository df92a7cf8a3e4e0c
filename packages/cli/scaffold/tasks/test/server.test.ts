// Starts the tasks server over stdio and runs a tool as a task to its end.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@mcpkit/client';
import { TasksClient } from '@mcpkit/tasks';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import { expect, it } from 'vitest';

it('runs a tool as a task', { timeout: 60_000 }, async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'tasks-')), 'tasks.db');
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    { handlers: { elicitation: async () => ({ action: 'accept', content: { goOn: true } }) } },
  );
  const tasks = new TasksClient(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/server.ts', '--db', db, '--step-ms', '20'],
    }),
  );
  const task = await tasks.callToolAsTask({ name: 'build', arguments: { steps: 2 } });
  const result = await task.wait();
  expect(result.content).toEqual([{ type: 'text', text: 'Built in 2 steps.' }]);
  await client.close();
});
