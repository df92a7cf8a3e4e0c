import { Client } from '@mcpkit/client';
import { buildRequestMeta, TASKS_EXTENSION_ID } from '@mcpkit/protocol';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { describe, expect, it } from 'vitest';
import { TasksClient } from '../src/index';
import { LEGACY, type Loose, MODERN, taskServer } from './helpers';

const URL_ = 'http://127.0.0.1:3000/mcp';

/** A client over Streamable HTTP to a task server, through the web handler itself (no socket), headers recorded. */
async function overHttp(version: string) {
  const server = taskServer();
  const handler = createStreamableHttpHandler(server.mcp);
  const posts: { method: string | null; name: string | null; body: Loose }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST') {
      const body = JSON.parse(await request.clone().text()) as Loose;
      posts.push({ method: request.headers.get('mcp-method'), name: request.headers.get('mcp-name'), body });
    }
    return handler.handle(request);
  };
  const client = new Client(
    { name: 'http-client', version: '1.0.0' },
    { handlers: { elicitation: async () => ({ action: 'accept', content: { name: 'Lin' } }) } },
  );
  const tasks = new TasksClient(client, { minPollIntervalMs: 10 });
  await client.connect(new StreamableHttpClientTransport(new URL(URL_), { fetch }), { protocolVersion: version });
  return { ...server, handler, client, tasks, posts };
}

describe('tasks over Streamable HTTP', () => {
  it('2026-07-28: every tasks/* request carries Mcp-Name: <taskId>', async () => {
    const { tasks, release, posts, client } = await overHttp(MODERN);
    release.current.open();
    const task = await tasks.callToolAsTask({ name: 'job', arguments: {} });
    expect((await task.wait()).content).toEqual([{ type: 'text', text: 'job done (task true)' }]);
    const ask = await tasks.callToolAsTask({ name: 'ask', arguments: {} });
    expect((await ask.wait()).content).toEqual([{ type: 'text', text: 'hello Lin' }]);
    await (await tasks.callToolAsTask({ name: 'job', arguments: {} })).cancel();
    const taskPosts = posts.filter((post) => post.body.method?.startsWith('tasks/'));
    expect(new Set(taskPosts.map((post) => post.method))).toEqual(
      new Set(['tasks/get', 'tasks/update', 'tasks/cancel']),
    );
    for (const post of taskPosts) expect(post.name).toBe(post.body.params.taskId);
    await client.close();
  });

  it('2026-07-28: the server refuses a tasks/get whose Mcp-Name is missing or differs (400, -32020)', async () => {
    const { handler, tasks, release } = await overHttp(MODERN);
    const task = await tasks.callToolAsTask({ name: 'job', arguments: {} });
    release.current.open();
    const body = {
      jsonrpc: '2.0',
      id: 99,
      method: 'tasks/get',
      params: {
        taskId: task.taskId,
        _meta: buildRequestMeta({
          protocolVersion: MODERN,
          clientCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
        }),
      },
    };
    const send = (name: string | undefined) => {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        host: '127.0.0.1:3000',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tasks/get',
      };
      if (name !== undefined) headers['mcp-name'] = name;
      return handler.handle(new Request(URL_, { method: 'POST', headers, body: JSON.stringify(body) }));
    };
    for (const name of [undefined, 'another-task']) {
      const response = await send(name);
      expect(response.status).toBe(400);
      expect(((await response.json()) as Loose).error.code).toBe(-32020);
    }
    expect((await send(task.taskId)).status).toBe(200);
  });

  it('2025-11-25 over a session: input goes out on the tasks/result stream and the task completes', async () => {
    const { tasks, client, posts } = await overHttp(LEGACY);
    const task = await tasks.callToolAsTask({ name: 'ask', arguments: {} });
    expect((await task.wait()).content).toEqual([{ type: 'text', text: 'hello Lin' }]);
    expect(posts.some((post) => post.body.method === 'tasks/result')).toBe(true);
    await client.close();
  });
});
