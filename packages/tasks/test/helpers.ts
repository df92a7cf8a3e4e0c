import { Client, type ClientOptions } from '@mcpkit/client';
import { createLinkedTransports, type MessageInfo } from '@mcpkit/jsonrpc-core';
import { McpServer } from '@mcpkit/server';
import { type CheckedTransport, checkWire } from '@mcpkit/testkit';
import { tasks as clientTasks } from '../src/client/index';
import type { TasksClient, TasksClientOptions, TasksServerOptions } from '../src/index';
import { tasks as serverTasks } from '../src/server/index';

// biome-ignore lint/suspicious/noExplicitAny: test fixtures read deep into wire objects
export type Loose = Record<string, any>;

export const LEGACY = '2025-11-25';
export const MODERN = '2026-07-28';

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A gate a test opens to let a tool's handler go on. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

/**
 * A server with the tools most tests use: `job` (optional task; progress, a status message, waits for `release`),
 * `ask` (optional task; an elicitation in the middle), `must` (required task), `never` (forbidden), `boom` (throws a
 * JSON-RPC error), `oops` (an isError result).
 */
export function taskServer(options: TasksServerOptions = {}) {
  const mcp = new McpServer({ name: 'tasks-test', version: '1.0.0' });
  // The shape every user writes: the extension installed through the public `extend` (restart.test.ts keeps the
  // older `new TaskServer(mcp, options)`).
  const tasks = mcp.extend(serverTasks({ pollIntervalMs: 20, ...options }));
  const release = { current: gate() };
  const seen = { aborted: 0 };
  mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    await ctx.progress(1, 2, 'started');
    await ctx.get('task')?.setStatusMessage('halfway');
    await release.current.wait;
    if (ctx.signal.aborted) seen.aborted++;
    await ctx.progress(2, 2, 'done');
    return { content: [{ type: 'text', text: `job done (task ${ctx.get('task') !== undefined})` }] };
  });
  mcp.registerTool('ask', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.name ?? answer.action)}` }] };
  });
  mcp.registerTool('must', { execution: { taskSupport: 'required' } }, () => ({
    content: [{ type: 'text', text: 'must done' }],
  }));
  mcp.registerTool('never', { execution: { taskSupport: 'forbidden' } }, () => ({
    content: [{ type: 'text', text: 'inline' }],
  }));
  mcp.registerTool('plain', {}, () => ({ content: [{ type: 'text', text: 'plain' }] }));
  mcp.registerTool('oops', { execution: { taskSupport: 'optional' } }, () => ({
    isError: true,
    content: [{ type: 'text', text: 'it broke' }],
  }));
  mcp.registerTool('boom', { execution: { taskSupport: 'optional' } }, async () => {
    const { JsonRpcError } = await import('@mcpkit/jsonrpc-core');
    throw new JsonRpcError(-32603, 'boom happened', { why: 'test' });
  });
  return { mcp, tasks, release, seen };
}

export interface Connected {
  client: Client;
  tasks: TasksClient;
  wire: CheckedTransport;
  close(): Promise<void>;
}

/** Connects a mcpkit client (with `TasksClient`) to `mcp` in memory, every server message checked on the wire. */
export async function connect(
  mcp: McpServer,
  version: string,
  options: { client?: ClientOptions; tasks?: TasksClientOptions; info?: MessageInfo } = {},
): Promise<Connected> {
  const [serverSide, clientSide] = createLinkedTransports(
    options.info === undefined ? {} : { first: { messageInfo: options.info } },
  );
  const wire = checkWire(serverSide, { side: 'server' });
  await mcp.connect(wire);
  const client = new Client(
    { name: 'tasks-test-client', version: '1.0.0' },
    {
      handlers: {
        elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
        sampling: async () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'sampled' } }),
      },
      ...options.client,
    },
  );
  const tasks = client.extend(clientTasks({ minPollIntervalMs: 10, ...options.tasks }));
  await client.connect(clientSide, { protocolVersion: version });
  return {
    client,
    tasks,
    wire,
    close: async () => {
      await client.close();
    },
  };
}
