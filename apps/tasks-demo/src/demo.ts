// The tasks demo (`npx pnpm --filter @mcpkit/app-tasks-demo demo`, or `--quick`): a client starts src/server.ts
// over stdio, runs a long build as a task (progress, a status message, a question halfway), kills the server in the
// middle, starts it again on the same SQLite file, and picks the task up by its id — first in the 2026-07-28 era
// (the io.modelcontextprotocol/tasks extension), then in 2025-11-25 (task-augmented tools/call). It checks itself: a
// step that does not behave as described stops the demo with a non-zero exit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@mcpkit/client';
import { type TaskHandle, TasksClient } from '@mcpkit/tasks';
import { StdioClientTransport } from '@mcpkit/transport-stdio';

const quick = process.argv.includes('--quick');
const STEP_MS = quick ? 40 : 400;
const STEPS = 6;
const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`demo check failed: ${what}`);
}
const say = (text: string) => console.log(`  ${text}`);
const textOf = (result: { content?: ReadonlyArray<{ type: string; text?: string }> }) =>
  (result.content ?? []).map((block) => block.text ?? `[${block.type}]`).join(' ');

/** Starts the server on `db` and connects a client (with tasks) in the given era. */
async function start(db: string, protocolVersion: string) {
  const client = new Client(
    { name: 'tasks-demo-client', version: '1.0.0' },
    {
      handlers: {
        elicitation: (params) => {
          say(`? the server asks: "${params.message}" → yes`);
          return { action: 'accept', content: { goOn: true } };
        },
      },
    },
  );
  const tasks = new TasksClient(client);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...process.execArgv, SERVER, '--db', db, '--step-ms', String(STEP_MS)],
    stderr: 'pipe',
  });
  await client.connect(transport, { protocolVersion });
  return { client, tasks, transport };
}

/** Polls until `handle`'s status message names step `step` or a later one. */
async function reached(handle: TaskHandle, step: number): Promise<void> {
  for (let round = 0; round < 400; round++) {
    const match = /step (\d+)/.exec((await handle.status()).statusMessage ?? '');
    if (match !== null && Number(match[1]) >= step) return;
    await new Promise((resolve) => setTimeout(resolve, STEP_MS / 4));
  }
  throw new Error(`demo check failed: the build never reached step ${step}`);
}

async function runEra(title: string, protocolVersion: string, dir: string): Promise<void> {
  console.log(`\n━━ ${title}`);
  const db = join(dir, `${protocolVersion}.db`);
  const first = await start(db, protocolVersion);
  say(`connected: ${first.client.protocolVersion} (${first.client.era})`);

  const build = await first.tasks.callToolAsTask(
    { name: 'build', arguments: { steps: STEPS } },
    { onProgress: ({ progress, total, message }) => say(`… progress ${progress}/${total}: ${message}`) },
  );
  build.onStatus((info) => say(`• task ${info.status}${info.statusMessage ? `: ${info.statusMessage}` : ''}`));
  const report = await first.tasks.callToolAsTask({ name: 'report', arguments: {} });
  check(!build.immediate && !report.immediate, 'both calls became tasks');
  say(`build is task ${build.taskId}; report is task ${report.taskId}`);

  await reached(build, 2);
  say('✗ killing the server mid-task (SIGKILL)');
  process.kill(first.transport.pid!, 'SIGKILL');
  await first.client.close().catch(() => undefined);

  const second = await start(db, protocolVersion);
  say('↻ server started again on the same SQLite file; the client picks its tasks up by id');
  const again = second.tasks.task(build.taskId);
  again.onStatus((info) => say(`• task ${info.status}${info.statusMessage ? `: ${info.statusMessage}` : ''}`));
  const result = await again.wait();
  say(`← ${textOf(result)}`);
  check(textOf(result) === `Built in ${STEPS} steps.`, 'the resumed build finished');

  const lost = await second.tasks.task(report.taskId).status();
  say(`report: ${lost.status} — ${lost.statusMessage}`);
  check(lost.status === 'failed' && /server restarted/.test(lost.statusMessage ?? ''), 'the report reads failed');
  await second.client.close();
}

const started = Date.now();
const dir = mkdtempSync(join(tmpdir(), 'mcpkit-tasks-demo-'));
try {
  await runEra('2026-07-28: the io.modelcontextprotocol/tasks extension', '2026-07-28', dir);
  await runEra('2025-11-25: task-augmented tools/call', '2025-11-25', dir);
  console.log(`\nDone in ${Date.now() - started} ms: every step behaved as described, in both eras.`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
