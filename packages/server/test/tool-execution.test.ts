import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/index';
import { closeHarnesses, connect, initialize, type Loose, modern } from './harness';

afterEach(closeHarnesses);

function server() {
  const mcp = new McpServer({ name: 's', version: '1' });
  mcp.registerTool('task-able', { execution: { taskSupport: 'optional' } }, () => ({ content: [] }));
  mcp.registerTool('plain', {}, () => ({ content: [] }));
  return mcp;
}

describe('Tool.execution (the seam @mcpkit/tasks reads)', () => {
  it('is listed in 2025-11-25 only, the revision whose Tool has it', async () => {
    for (const revision of ['2025-11-25', '2025-06-18'] as const) {
      const harness = await connect(server(), { revision });
      await initialize(harness.client, revision);
      const { tools } = await harness.client.request<Loose>('tools/list', {});
      const listed = tools.find((tool: Loose) => tool.name === 'task-able');
      if (revision === '2025-11-25') expect(listed.execution).toEqual({ taskSupport: 'optional' });
      else expect(listed).not.toHaveProperty('execution');
      harness.checked.assertClean();
      await harness.close();
    }
    const response = (await server().handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: modern(),
    })) as Loose;
    expect(response.result.tools.find((tool: Loose) => tool.name === 'task-able')).not.toHaveProperty('execution');
  });

  it('getTool returns the enabled tool’s wire definition, execution included', () => {
    const mcp = server();
    expect(mcp.getTool('task-able')).toMatchObject({ name: 'task-able', execution: { taskSupport: 'optional' } });
    expect(mcp.getTool('plain')).not.toHaveProperty('execution');
    expect(mcp.getTool('nope')).toBeUndefined();
    const handle = mcp.registerTool('hidden', {}, () => ({ content: [] }));
    handle.disable();
    expect(mcp.getTool('hidden')).toBeUndefined();
  });

  it('a result an extension owns (resultType "task") skips the outputSchema check; other results do not', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    let task = true;
    mcp.registerTool(
      'typed',
      { outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
      () => (task ? ({ resultType: 'task', taskId: 't' } as never) : { content: [] }),
    );
    const call = () =>
      mcp.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern({ name: 'typed', arguments: {} }) });
    expect(((await call()) as Loose).result).toMatchObject({ resultType: 'task', taskId: 't' });
    task = false;
    expect(((await call()) as Loose).error.code).toBe(-32603);
  });
});

describe('ListenStream.info', () => {
  it('carries the listen request’s MessageInfo (auth), so extensions can tell whose stream it is', async () => {
    const mcp = server();
    const auth = { token: 't', subject: 'ada' };
    const harness = await connect(mcp, { messageInfo: { auth } });
    void harness.client.request('subscriptions/listen', modern({ notifications: { toolsListChanged: true } }));
    for (let round = 0; round < 100 && mcp.server.listenStreams.size === 0; round++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const [stream] = [...mcp.server.listenStreams];
    expect(stream?.info.auth).toEqual(auth);
    mcp.server.closeSubscriptions();
  });
});
