import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@mcpkit/server';
import { RedisEventStore, RedisMessageBus, RedisNonceStore, RedisSessionStore } from '@mcpkit/store-redis';
import { RedisTaskStore } from '@mcpkit/store-redis/tasks';
import { TaskServer } from '@mcpkit/tasks';
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from '@mcpkit/transport-http';
import { Redis } from 'ioredis';

// One instance of the cluster's server: the same definition runs in every instance, and everything a request may
// need from another instance lives in Redis (sessions, events, tasks, requestState nonces) or travels on its bus.

/** What every instance must agree on. */
export interface InstanceOptions {
  /** `redis://host:port`. */
  redisUrl: string;
  /** This instance's name on the bus (and in stream ids). */
  instanceId: string;
  /** The HMAC key of requestState tokens: the same on every instance. */
  requestStateSecret: string;
  /**
   * `false`: no Redis at all, the in-process defaults (one instance alone; the bench's baseline). Default `true`.
   */
  shared?: boolean;
}

/** A running instance: its server, HTTP handler and Redis clients. */
export interface ClusterInstance {
  readonly mcp: McpServer;
  readonly handler: StreamableHttpHandler;
  readonly tasks: TaskServer;
  /** `undefined` for a local instance. */
  readonly redis: Redis | undefined;
  close(): Promise<void>;
}

/**
 * A Redis client as scale-out wants it: commands fail at once while Redis is unreachable (the request then gets a 503
 * instead of hanging), time out after 2 s, and the connection is retried forever in the background.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(50 * attempt, 1_000),
  });
  // Connection errors are retried by the client; requests that needed Redis meanwhile got their 503.
  redis.on('error', () => undefined);
  await redis.connect();
  return redis;
}

/** Builds one instance. */
export async function createClusterInstance(options: InstanceOptions): Promise<ClusterInstance> {
  if (options.shared === false) return createLocalInstance(options);
  const redis = await connectRedis(options.redisUrl);
  const bus = new RedisMessageBus(redis);
  const mcp = new McpServer(
    { name: 'cluster-demo', version: '1.0.0' },
    { requestStateSecret: options.requestStateSecret, nonceStore: new RedisNonceStore(redis) },
  );
  // A shared store: no instance may fail another's unfinished tasks at start-up (`recover: false`).
  const tasks = new TaskServer(mcp, { store: new RedisTaskStore(redis), bus, recover: false, pollIntervalMs: 100 });
  const handler = registerTools(mcp, options.instanceId, redis, (ctx) => handler.closeSseStream(ctx), {
    instanceId: options.instanceId,
    sessionStore: new RedisSessionStore(redis),
    eventStore: new RedisEventStore(redis),
    bus,
    retryMs: 50,
  });
  await tasks.ready;
  return {
    mcp,
    handler,
    tasks,
    redis,
    async close() {
      await handler.close();
      await tasks.close();
      await mcp.close();
      await bus.close();
      redis.disconnect();
    },
  };
}

/** The same server with the in-process defaults and no Redis (what one instance alone would run). */
async function createLocalInstance(options: InstanceOptions): Promise<ClusterInstance> {
  const mcp = new McpServer({ name: 'cluster-demo', version: '1.0.0' });
  const tasks = new TaskServer(mcp, { pollIntervalMs: 100 });
  const handler = registerTools(mcp, options.instanceId, undefined, (ctx) => handler.closeSseStream(ctx), {
    retryMs: 50,
  });
  await tasks.ready;
  return {
    mcp,
    handler,
    tasks,
    redis: undefined,
    async close() {
      await handler.close();
      await tasks.close();
      await mcp.close();
    },
  };
}

/** Registers the sample's tools and makes the HTTP handler. */
function registerTools(
  mcp: McpServer,
  instanceId: string,
  redis: Redis | undefined,
  closeSseStream: StreamableHttpHandler['closeSseStream'],
  handlerOptions: StreamableHttpHandlerOptions,
): StreamableHttpHandler {
  const options = { instanceId };
  mcp.registerTool(
    'whoami',
    { description: 'Which instance answered', inputSchema: { type: 'object', properties: {} } },
    () => ({ content: [{ type: 'text', text: options.instanceId }] }),
  );
  mcp.registerTool(
    'echo',
    { inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    (args) => ({ content: [{ type: 'text', text: String((args as { text: string }).text) }] }),
  );
  mcp.registerTool(
    'report',
    {
      description: 'Reports progress and logs each step; with poll, closes its SSE stream after the first step',
      inputSchema: {
        type: 'object',
        properties: { steps: { type: 'number' }, poll: { type: 'boolean' }, delayMs: { type: 'number' } },
        required: ['steps'],
      },
    },
    async (args, ctx) => {
      const { steps, poll, delayMs } = args as { steps: number; poll?: boolean; delayMs?: number };
      for (let step = 1; step <= steps; step++) {
        await ctx.progress(step, steps, `step ${step} on ${options.instanceId}`);
        await ctx.log('info', `step ${step} done`);
        // SSE polling (SEP-1699): the client comes back with Last-Event-ID, through the proxy, to any instance.
        if (poll === true && step === 1) closeSseStream(ctx);
        await sleep(delayMs ?? 20, undefined, { signal: ctx.signal });
      }
      return { content: [{ type: 'text', text: `reported ${steps} steps from ${options.instanceId}` }] };
    },
  );
  mcp.registerTool(
    'ask',
    { description: 'Asks the user for a name', inputSchema: { type: 'object' } },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
      return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)} from ${options.instanceId}` }] };
    },
  );
  mcp.registerTool(
    'build',
    {
      description: 'A long job that runs as a task; records in Redis if it was cancelled',
      inputSchema: { type: 'object', properties: { ms: { type: 'number' } } },
      execution: { taskSupport: 'optional' },
    },
    async (args, ctx) => {
      const taskId = ctx.get('task')?.taskId;
      await ctx.get('task')?.setStatusMessage(`building on ${options.instanceId}`);
      try {
        await sleep((args as { ms?: number }).ms ?? 1_000, undefined, { signal: ctx.signal });
      } catch (error) {
        if (taskId !== undefined) await redis?.set(`demo:cancelled:${taskId}`, options.instanceId, 'PX', 60_000);
        throw error;
      }
      return { content: [{ type: 'text', text: `built on ${options.instanceId}` }] };
    },
  );
  mcp.registerResource('status', 'memo://status', { mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri, text: `status from ${options.instanceId}` }],
  }));
  mcp.registerTool(
    'touch-status',
    { description: 'Announces that memo://status changed', inputSchema: { type: 'object' } },
    () => {
      mcp.notifyResourceUpdated('memo://status');
      return { content: [{ type: 'text', text: `announced by ${options.instanceId}` }] };
    },
  );
  return createStreamableHttpHandler(mcp, handlerOptions);
}
