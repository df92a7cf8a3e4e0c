// Tasks and extensions through `mcpkit connect`, for each era of the host and of the remote. Within one era a task
// crosses as it is (2025-11-25: task-augmented tools/call, tasks/get|result|list|cancel, status notifications to the
// host; 2026-07-28: resultType "task", tasks/get|update|cancel with input requests); across the eras the bridge
// translates: a 2025-11-25 host's tasks/result polls the remote's tasks/get and asks the host its input requests; a
// 2026-07-28 host's tasks/get shows the questions a 2025-11-25 remote asks on a tasks/result the bridge holds open. Skills (SEP-2640) and MCP Apps (`io.modelcontextprotocol/ui`) cross in all four.
import { AppsServer } from '@mcpkit/apps';
import { Client } from '@mcpkit/client';
import { McpServer } from '@mcpkit/server';
import { skills as clientSkills } from '@mcpkit/skills/client';
import { skills } from '@mcpkit/skills/server';
import { tasks as clientTasks } from '@mcpkit/tasks/client';
import { tasks } from '@mcpkit/tasks/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectThroughBridge, type Remote, serveRemote } from './bridge-harness';

const UI = 'io.modelcontextprotocol/ui';
const TASKS = 'io.modelcontextprotocol/tasks';
let remote: Remote;
let bakes = 0;

beforeAll(async () => {
  const server = new McpServer({ name: 'pizzeria', version: '1.0.0' });
  const taskServer = server.extend(tasks({ pollIntervalMs: 50 }));
  server.registerTool(
    'bake',
    { description: 'Bakes a pizza, asking for the topping', execution: { taskSupport: 'optional' } },
    async (_args, ctx) => {
      bakes++;
      await ctx.get('task')?.setStatusMessage('oven hot');
      const topping = await ctx.elicit({
        message: 'Which topping?',
        requestedSchema: { type: 'object', properties: { topping: { type: 'string' } }, required: ['topping'] },
      });
      return { content: [{ type: 'text', text: `${topping.content?.topping} pizza` }] };
    },
  );
  server.registerTool(
    'proof',
    { description: 'Proofs dough until cancelled', execution: { taskSupport: 'optional' } },
    async (_args, ctx) => {
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      return { content: [{ type: 'text', text: 'stopped' }] };
    },
  );
  const skillsServer = server.extend(
    skills({
      skills: [
        { files: { 'SKILL.md': '---\nname: dough\ndescription: How to knead dough\n---\n\nKnead 10 minutes.\n' } },
      ],
    }),
  );
  const apps = new AppsServer(server);
  apps.registerView('menu', 'ui://pizzeria/menu', { html: '<!doctype html><html><body>menu</body></html>' });
  apps.registerAppTool('menu', { view: 'ui://pizzeria/menu', description: 'The menu' }, () => ({
    content: [{ type: 'text', text: 'margherita, diavola' }],
  }));
  // An extension the bridge does not know the methods of: left out, and said so.
  server.extend({ id: 'com.example/loyalty', methods: { 'loyalty/points': () => ({ points: 3 }) } });
  await Promise.all([taskServer.ready, skillsServer.ready]);
  remote = await serveRemote(server);
});

afterAll(async () => {
  await remote?.close();
});

function hostOptions() {
  return {
    handlers: {
      elicitation: async () => ({ action: 'accept' as const, content: { topping: 'funghi' } }),
    },
  };
}

describe('mcpkit connect: tasks and extensions', { timeout: 30_000 }, () => {
  for (const hostEra of ['legacy', 'modern'] as const) {
    for (const [remoteEra, args] of [
      ['legacy', ['--protocol-version', '2025-11-25']],
      ['modern', []],
    ] as const) {
      const sameEra = hostEra === remoteEra;
      it(`a ${hostEra} host, a ${remoteEra} remote: tasks, skills and MCP Apps cross`, async () => {
        const host = new Client({ name: 'host', version: '1.0.0' }, hostOptions());
        const taskClient = host.extend(clientTasks());
        const skillsClient = host.extend(clientSkills());
        host.extend({ id: UI, declaration: { mimeTypes: ['text/html;profile=mcp-app'] } });
        const bridge = await connectThroughBridge(remote.url, [...args], hostEra, host);
        try {
          const capabilities = bridge.host.serverCapabilities ?? {};
          // Each era's own tasks vocabulary, only when the remote speaks it too.
          expect('tasks' in capabilities).toBe(hostEra === 'legacy');
          expect(capabilities.extensions?.[TASKS] !== undefined).toBe(hostEra === 'modern');
          expect(Object.keys(capabilities.extensions ?? {})).toEqual(
            expect.arrayContaining(['io.modelcontextprotocol/skills', UI]),
          );
          expect(capabilities.extensions?.['com.example/loyalty']).toBeUndefined();
          expect(bridge.stderr()).toContain('the extension com.example/loyalty is not crossed');

          bakes = 0;
          const handle = await taskClient.callToolAsTask({ name: 'bake', arguments: {} });
          expect(handle.immediate).toBe(false);
          expect((await handle.wait()).content).toEqual([{ type: 'text', text: 'funghi pizza' }]);
          // A task runs once upstream, its question answered through the task (no input round replays it).
          expect(bakes).toBe(1);

          {
            const proofing = await taskClient.callToolAsTask({ name: 'proof', arguments: {} });
            expect((await proofing.status()).status).toBe('working');
            // 2026-07-28 has no tasks/list: listed only when both sides are 2025-11-25.
            if (hostEra === 'legacy' && sameEra) {
              const listed = await taskClient.list();
              expect(listed.tasks.map((task) => task.taskId)).toEqual(
                expect.arrayContaining([handle.taskId, proofing.taskId]),
              );
            }
            await proofing.cancel();
            expect((await proofing.status()).status).toBe('cancelled');
          }

          // Skills: listed and loaded (skills/list, skills/get, the skill:// resource), verified by the client.
          const [entry] = await skillsClient.listAll();
          const skill = await skillsClient.load(entry!);
          expect(skill.body.trim()).toBe('Knead 10 minutes.');

          // MCP Apps: the tool's view link and the ui:// resource cross as they are.
          const menu = (await bridge.host.listTools()).tools.find((tool) => tool.name === 'menu');
          expect(JSON.stringify(menu?._meta)).toContain('ui://pizzeria/menu');
          const view = await bridge.host.readResource({ uri: 'ui://pizzeria/menu' });
          expect(JSON.stringify(view.contents)).toContain('menu</body>');
        } finally {
          expect(await bridge.close()).toBe(0);
        }
      });
    }
  }

  it('a 2025-11-25 host gets the status notifications of its task (raw tools/call with params.task)', async () => {
    const statuses: string[] = [];
    const host = new Client({ name: 'raw-host', version: '1.0.0' }, hostOptions());
    host.setNotificationHandler('notifications/tasks/status', (params) => {
      statuses.push((params as { status: string }).status);
    });
    const bridge = await connectThroughBridge(remote.url, ['--protocol-version', '2025-11-25'], 'legacy', host);
    try {
      const created = (await bridge.host.request('tools/call', {
        name: 'bake',
        arguments: {},
        task: { ttl: 60_000 },
      })) as {
        task: { taskId: string; status: string };
      };
      expect(created.task.status).toBe('working');
      const result = (await bridge.host.request('tasks/result', { taskId: created.task.taskId })) as {
        content: unknown;
        _meta?: Record<string, unknown>;
      };
      expect(result.content).toEqual([{ type: 'text', text: 'funghi pizza' }]);
      expect(JSON.stringify(result._meta)).toContain(created.task.taskId);
      const deadline = Date.now() + 5_000;
      while (!statuses.includes('completed') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(statuses).toEqual(expect.arrayContaining(['input_required', 'completed']));
    } finally {
      expect(await bridge.close()).toBe(0);
    }
  });
});
