import { Client } from '@mcpkit/client';
import { McpServer } from '@mcpkit/server';
import { type TaskInfo, TasksClient } from '@mcpkit/tasks';
import { tasks as clientTasks } from '@mcpkit/tasks/client';
import { tasks } from '@mcpkit/tasks/server';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { afterEach, describe, expect, it } from 'vitest';
import { Gateway } from '../src/index';
import { upstream as httpUpstream } from '../src/node/index';
import { assertWireClean, gatewayWithClient, LEGACY, MODERN, memoryUpstream, PAIRINGS, until } from './harness';

// A task on the upstream is a task downstream: the gateway's own TasksServer makes the downstream task and the mount's
// TasksClient follows the upstream one, so status messages, questions to the user, cancellation and the result cross
// in every era pairing (2025-11-25 task-augmented calls and the 2026-07-28 extension, on either side).

/** An upstream with tasks: `build` (optional) reports, asks the user and finishes; `hold` (required) waits to be cancelled. */
function taskUpstream() {
  const seen = { cancelled: 0, asked: 0 };
  const server = new McpServer({ name: 'builds', version: '1.0.0' });
  const taskServer = server.extend(tasks({ pollIntervalMs: 20, recover: false }));
  server.registerTool(
    'build',
    {
      description: 'Builds, asking whether to deploy',
      inputSchema: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] },
      execution: { taskSupport: 'optional' },
    },
    async (args, ctx) => {
      await ctx.get('task')?.setStatusMessage(`building ${String(args.target)}`);
      seen.asked += 1;
      const answer = await ctx.elicit({
        message: 'Deploy?',
        requestedSchema: { type: 'object', properties: { deploy: { type: 'boolean' } }, required: ['deploy'] },
      });
      return {
        content: [
          { type: 'text', text: `built ${String(args.target)}, deploy=${String(answer.content?.deploy)}` },
          { type: 'resource_link', uri: 'file:///out/app.js', name: 'app.js' },
        ],
      };
    },
  );
  server.registerTool(
    'hold',
    { description: 'Waits to be cancelled', execution: { taskSupport: 'required' } },
    (_a, ctx) => {
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          seen.cancelled += 1;
          reject(ctx.signal.reason);
        });
      });
    },
  );
  return { server, taskServer, seen };
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
  assertWireClean();
});

async function crossing(pairing: { downstream: string; upstream: string }) {
  const upstream = taskUpstream();
  const memory = memoryUpstream(upstream.server, pairing.upstream);
  const setup = await gatewayWithClient(
    pairing.downstream,
    { handlers: { elicitation: () => ({ action: 'accept', content: { deploy: true } }) } },
    { tasks: { pollIntervalMs: 20 } },
  );
  const taskClient = setup.client.extend(clientTasks({ defaultPollIntervalMs: 20, minPollIntervalMs: 10 }));
  const mount = await setup.gateway.mount('ci', memory.connection);
  await setup.connectClient();
  open.push(async () => {
    await setup.client.close();
    await setup.gateway.close();
    await setup.front.close();
    await upstream.server.close();
    await upstream.taskServer.close();
  });
  return { ...setup, upstream, memory, taskClient, mount };
}

describe.each(PAIRINGS)('tasks cross: $name', (pairing) => {
  it('runs an upstream task as a downstream task: status message, a question to the user, the result', async () => {
    const { client, taskClient, upstream } = await crossing(pairing);
    const notified: string[] = [];
    client.use(async (ctx, next) => {
      if (ctx.direction === 'inbound' && ctx.kind === 'notification') notified.push(ctx.method);
      return next();
    });
    if (client.era === 'legacy') {
      const tools = await client.listAllTools();
      expect(tools.find((tool) => tool.name === 'ci_build')?.execution).toEqual({ taskSupport: 'optional' });
    }
    const statuses: TaskInfo[] = [];
    const task = await taskClient.callToolAsTask({ name: 'ci_build', arguments: { target: 'web' } });
    expect(task.immediate).toBe(false);
    expect(task.taskId).not.toBe('');
    task.onStatus((info) => statuses.push(info));
    const result = await task.wait();
    // The URI inside the result is mapped like any other result's (`ci+…`).
    expect(result.content).toEqual([
      { type: 'text', text: 'built web, deploy=true' },
      { type: 'resource_link', uri: 'ci+file:///out/app.js', name: 'app.js' },
    ]);
    expect(upstream.seen.asked).toBe(1);
    expect(statuses.some((info) => info.status === 'input_required')).toBe(true);
    expect(statuses.at(-1)?.status).toBe('completed');
    if (client.era === 'legacy') {
      // The gateway's task tells its status changes on the session (2025-11-25 `notifications/tasks/status`).
      expect(notified).toContain('notifications/tasks/status');
      // 2025-11-25 lists a requestor's tasks; the downstream sees the gateway's task, finished.
      const listed = await taskClient.list();
      expect(listed.tasks.map((info) => [info.taskId, info.status])).toEqual([[task.taskId, 'completed']]);
    }
  });

  it('cancels the upstream task when the downstream cancels its own', async () => {
    const { taskClient, upstream } = await crossing(pairing);
    const task = await taskClient.callToolAsTask({ name: 'ci_hold', arguments: {} });
    await until(async () => (await task.status()).status === 'working', 'the task working');
    await task.cancel();
    await until(() => upstream.seen.cancelled === 1, 'the upstream task cancelled');
    expect((await task.status()).status).toBe('cancelled');
  });

  it('fails the downstream task, naming the mount, when the upstream dies while it runs', async () => {
    const { taskClient, memory } = await crossing(pairing);
    const task = await taskClient.callToolAsTask({ name: 'ci_hold', arguments: {} });
    await until(async () => (await task.status()).status === 'working', 'the task working');
    await memory.serverSides[0]?.close();
    const failure = await task.wait().then(
      () => undefined,
      (error: unknown) => error as { message?: string },
    );
    expect(failure?.message).toContain("mount 'ci'");
    expect((await task.status()).status).toBe('failed');
  });

  it('gives a plain callTool the result, whichever way the call ran', async () => {
    const { client, upstream } = await crossing(pairing);
    const result = await client.callTool({ name: 'ci_build', arguments: { target: 'api' } });
    expect(result.content?.[0]).toEqual({ type: 'text', text: 'built api, deploy=true' });
    // A 2026-07-28 downstream declares the extension, so its call runs as a task (driven to the end by its client); a
    // 2025-11-25 one runs it inline, which a 2026-07-28 upstream answers in an input round (its handler runs twice).
    expect(upstream.seen.asked).toBe(pairing.downstream === LEGACY && pairing.upstream === MODERN ? 2 : 1);
  });
});

describe('tasks cross over Streamable HTTP on both hops', () => {
  it.each(PAIRINGS)('$name', async (pairing) => {
    const upstream = taskUpstream();
    const upstreamHttp = await listen(createStreamableHttpHandler(upstream.server), { port: 0, host: '127.0.0.1' });
    const front = new McpServer({ name: 'front', version: '1.0.0' });
    const gateway = new Gateway(front, { tasks: { pollIntervalMs: 20 } });
    await gateway.mount('ci', httpUpstream({ url: upstreamHttp.url, connect: { protocolVersion: pairing.upstream } }));
    const frontHttp = await listen(createStreamableHttpHandler(front), { port: 0, host: '127.0.0.1' });
    const client = new Client(
      { name: 'downstream', version: '1.0.0' },
      { handlers: { elicitation: () => ({ action: 'accept', content: { deploy: false } }) } },
    );
    const taskClient = new TasksClient(client, { defaultPollIntervalMs: 20, minPollIntervalMs: 10 });
    open.push(async () => {
      await client.close();
      await gateway.close();
      await frontHttp.close();
      await upstreamHttp.close();
      await upstream.taskServer.close();
    });
    await client.connect(new StreamableHttpClientTransport(frontHttp.url), { protocolVersion: pairing.downstream });
    const task = await taskClient.callToolAsTask({ name: 'ci_build', arguments: { target: 'docs' } });
    expect(task.immediate).toBe(false);
    const result = await task.wait();
    expect(result.content?.[0]).toEqual({ type: 'text', text: 'built docs, deploy=false' });
    if (pairing.downstream === LEGACY) expect((await taskClient.list()).tasks).toHaveLength(1);
  });
});

describe('tasks of several callers on one legacy upstream over Streamable HTTP', () => {
  it('asks each task’s question of its own caller, with both tasks waiting at once', async () => {
    const upstream = taskUpstream();
    const upstreamHttp = await listen(createStreamableHttpHandler(upstream.server), { port: 0, host: '127.0.0.1' });
    const front = new McpServer({ name: 'front', version: '1.0.0' });
    const gateway = new Gateway(front, { tasks: { pollIntervalMs: 20 } });
    await gateway.mount('ci', httpUpstream({ url: upstreamHttp.url, connect: { protocolVersion: LEGACY } }));
    const frontHttp = await listen(createStreamableHttpHandler(front), { port: 0, host: '127.0.0.1' });
    open.push(async () => {
      await gateway.close();
      await frontHttp.close();
      await upstreamHttp.close();
      await upstream.taskServer.close();
    });
    // Each caller answers only once both have been asked: the two questions are in flight together.
    let asked = 0;
    let bothAsked!: () => void;
    const together = new Promise<void>((resolve) => {
      bothAsked = resolve;
    });
    const callers = await Promise.all(
      [
        { deploy: true, version: LEGACY },
        { deploy: false, version: MODERN },
      ].map(async ({ deploy, version }) => {
        const client = new Client(
          { name: `caller-${String(deploy)}`, version: '1.0.0' },
          {
            handlers: {
              elicitation: async () => {
                asked += 1;
                if (asked === 2) bothAsked();
                await together;
                return { action: 'accept', content: { deploy } };
              },
            },
          },
        );
        const taskClient = new TasksClient(client, { defaultPollIntervalMs: 20, minPollIntervalMs: 10 });
        open.push(() => client.close());
        await client.connect(new StreamableHttpClientTransport(frontHttp.url), { protocolVersion: version });
        return { deploy, taskClient };
      }),
    );
    const results = await Promise.all(
      callers.map(async ({ deploy, taskClient }) => {
        const task = await taskClient.callToolAsTask({ name: 'ci_build', arguments: { target: String(deploy) } });
        return (await task.wait()).content?.[0];
      }),
    );
    expect(results).toEqual([
      { type: 'text', text: 'built true, deploy=true' },
      { type: 'text', text: 'built false, deploy=false' },
    ]);
  });
});
