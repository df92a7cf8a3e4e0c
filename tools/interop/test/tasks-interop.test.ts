import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@mcpkit/client';
import { TasksClient } from '@mcpkit/tasks';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureCommand, runFixtureClient } from './run-fixture-client';
import { checkTapLog, formatViolations } from './wire-check';

// Tasks against the official SDKs. Which releases implement tasks (checked in their code):
// - @modelcontextprotocol/sdk 1.32.x (v1): the 2025-11-25 tasks, server and client, under `experimental.tasks`
//   (registerToolTask, callToolStream, task-augmented createMessageStream / elicitInputStream, InMemoryTaskStore).
// - @modelcontextprotocol/server and /client 2.4.x (v2): none. Their types say "Task methods are 2025-11-25 wire
//   vocabulary with no SDK runtime"; the 2026-07-28 extension io.modelcontextprotocol/tasks is not implemented (only
//   its Mcp-Name header rule is). So the 2026-07-28 extension has no official peer to test against: it is covered by
//   mcpkit ↔ mcpkit tests (packages/tasks) and by the conformance suite's tasks scenarios.
// Every message on the pipe goes through fixtures/wire-tap.mjs and is checked against the official 2025-11-25 schema.

const tapDir = mkdtempSync(join(tmpdir(), 'mcpkit-tasks-interop-'));
afterAll(() => rmSync(tapDir, { recursive: true, force: true }));
let taps = 0;

function tapped(server: string): { command: string[]; log: string } {
  const log = join(tapDir, `tap-${taps++}.log`);
  return { command: [...fixtureCommand('wire-tap.mjs'), '--out', log, '--', ...fixtureCommand(server)], log };
}

describe('tasks interop with the official v1 SDK (2025-11-25)', () => {
  it('official v1 client → mcpkit server: callToolStream, input over tasks/result, get, list, cancel, errors', async () => {
    const { command, log } = tapped('mcpkit-tasks-server.ts');
    const run = await runFixtureClient('official-v1-tasks-client.mjs', [], command, 40_000);
    const failed = run.report.steps.filter((step) => !step.ok);
    expect(failed, run.stderr).toEqual([]);
    expect(run.report.steps.map((step) => step.name)).toEqual([
      'connect',
      'tools/list execution.taskSupport',
      'callToolStream quick (task created, result)',
      'callToolStream ask (input_required, elicitation over tasks/result)',
      'getTask / listTasks',
      'cancelTask (and again: -32602)',
      'task on a tool without taskSupport: -32601',
    ]);
    const wire = await checkTapLog(log);
    expect(wire.violations, formatViolations(wire.violations)).toEqual([]);
    expect(wire.messages).toBeGreaterThan(20);
  }, 60_000);

  it('mcpkit client → official v1 server: callToolAsTask, cancel, list, inline tools, and the client as sampling receiver', async () => {
    const { command, log } = tapped('official-v1-tasks-server.mjs');
    const [node, ...args] = command as [string, ...string[]];
    const sampled: unknown[] = [];
    const client = new Client(
      { name: 'mcpkit-tasks-client', version: '0.0.0' },
      {
        handlers: {
          sampling: async (params) => {
            sampled.push(params);
            return { role: 'assistant', model: 'interop-model', content: { type: 'text', text: 'a haiku' } };
          },
        },
      },
    );
    const tasks = new TasksClient(client, { minPollIntervalMs: 10 });
    await client.connect(new StdioClientTransport({ command: node, args, stderr: 'pipe' }), {
      protocolVersion: '2025-11-25',
    });
    try {
      const delay = await tasks.callToolAsTask({ name: 'delay', arguments: { ms: 50 } }, { ttlMs: 30_000 });
      expect(delay.immediate).toBe(false);
      expect(delay.last).toMatchObject({ status: 'working', ttlMs: 30_000 });
      expect((await delay.wait()).content).toEqual([{ type: 'text', text: 'waited 50 ms' }]);
      expect((await delay.status()).status).toBe('completed');

      const long = await tasks.callToolAsTask({ name: 'delay', arguments: { ms: 60_000 } });
      expect((await tasks.list()).tasks.map((task) => task.taskId)).toContain(long.taskId);
      await long.cancel();
      expect((await long.status()).status).toBe('cancelled');
      await expect(long.cancel()).rejects.toMatchObject({ code: -32602 });

      // No execution.taskSupport on `greet`: never augmented (the spec forbids it), the result comes at once.
      const greet = await tasks.callToolAsTask({ name: 'greet', arguments: { name: 'Ada' } });
      expect(greet.immediate).toBe(true);
      expect((await greet.wait()).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);

      // The v1 server sends a task-augmented sampling/createMessage: mcpkit's client answers with a task, runs its
      // sampling handler detached, and serves the server's tasks/get and tasks/result.
      const asked = await client.callTool({ name: 'ask-model', arguments: { prompt: 'Write a haiku' } });
      expect(asked.content).toEqual([
        { type: 'text', text: expect.stringMatching(/^a haiku \[taskCreated,.*result\]$/) },
      ]);
      expect(sampled).toHaveLength(1);
    } finally {
      await client.close();
    }
    const wire = await checkTapLog(log);
    expect(wire.violations, formatViolations(wire.violations)).toEqual([]);
  }, 60_000);
});
