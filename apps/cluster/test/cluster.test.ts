import { Client } from '@mcpkit/client';
import type { LoggingMessageNotificationParams } from '@mcpkit/protocol';
import { TasksClient } from '@mcpkit/tasks';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '@mcpkit/testkit/redis';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectRedis } from '../src/instance';
import { type InstanceProcess, startInstance } from '../src/processes';
import { type RoundRobinProxy, startRoundRobinProxy } from '../src/proxy';

// The sample as it runs: a redis-server, three instances (processes), and the round-robin proxy without affinity in
// front. Every scenario of issue 17 goes through the proxy, so consecutive requests land on different instances; the
// proxy's record says which instance served what.

const noRedis = skipWithoutRedis('apps/cluster');
const IDS = ['a', 'b', 'c'];

describe.skipIf(noRedis)('apps/cluster: three instances, one Redis, no affinity', () => {
  let redisServer: RedisServer;
  let redis: Redis;
  const instances: InstanceProcess[] = [];
  let proxy: RoundRobinProxy;
  const clients: Client[] = [];

  beforeAll(async () => {
    redisServer = await startRedisServer();
    redis = await connectRedis(redisServer.url);
    instances.push(...(await Promise.all(IDS.map((id) => startInstance(id, redisServer.url)))));
    proxy = await startRoundRobinProxy(instances.map((instance) => instance.url));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await proxy?.close();
    await Promise.all(instances.map((instance) => instance.stop()));
    redis?.disconnect();
    await redisServer?.stop();
  }, 30_000);

  async function connect(era: 'legacy' | 'modern', logs?: LoggingMessageNotificationParams[]): Promise<Client> {
    const client = new Client(
      { name: 'cluster-test', version: '1.0.0' },
      {
        handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) },
        onLogMessage: (params) => logs?.push(params),
      },
    );
    await client.connect(
      new StreamableHttpClientTransport(proxy.url, {
        reconnect: { initialDelayMs: 20, maxDelayMs: 200, maxAttempts: 10 },
      }),
      { era },
    );
    clients.push(client);
    return client;
  }

  /** The instances that served the requests recorded since `from` matching `rpc`. */
  function servedBy(from: number, rpc?: string): Set<number> {
    return new Set(
      proxy.forwarded
        .slice(from)
        .filter((record) => rpc === undefined || record.rpc === rpc)
        .map((record) => record.upstream),
    );
  }

  function text(result: { content?: unknown }): string {
    return ((result.content as { text?: string }[] | undefined)?.[0]?.text ?? '') as string;
  }

  it('a legacy session is used from every instance', async () => {
    const from = proxy.forwarded.length;
    const client = await connect('legacy');
    const answeredBy = new Set<string>();
    for (let call = 0; call < 6; call++) answeredBy.add(text(await client.callTool({ name: 'whoami', arguments: {} })));
    expect(answeredBy).toEqual(new Set(IDS));
    expect(servedBy(from, 'tools/call').size).toBe(3);
  });

  it('progress and log notifications reach the caller through a GET stream held by another instance', async () => {
    const logs: LoggingMessageNotificationParams[] = [];
    const client = await connect('legacy', logs);
    await client.setLoggingLevel('info');
    const progress: string[] = [];
    const from = proxy.forwarded.length;
    // The tool closes its POST stream after step 1 (SSE polling); the client resumes with GET, on the next instance.
    const result = await client.callTool(
      { name: 'report', arguments: { steps: 4, poll: true, delayMs: 30 } },
      { onProgress: (p) => progress.push(String(p.message)) },
    );
    const runner = text(result).split(' ').at(-1)!;
    expect(progress).toEqual([1, 2, 3, 4].map((step) => `step ${step} on ${runner}`));
    expect(logs.map((log) => log.data)).toEqual([1, 2, 3, 4].map((step) => `step ${step} done`));
    const gets = proxy.forwarded
      .slice(from)
      .filter((record) => record.httpMethod === 'GET' && record.sessionId !== undefined);
    const call = proxy.forwarded.slice(from).find((record) => record.rpc === 'tools/call')!;
    expect(gets.some((get) => get.upstream !== call.upstream)).toBe(true);
  });

  it('an elicitation sent from one instance is answered through another', async () => {
    const client = await connect('legacy');
    const from = proxy.forwarded.length;
    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect(text(result)).toMatch(/^hello Ada from [abc]$/);
    const call = proxy.forwarded.slice(from).find((record) => record.rpc === 'tools/call')!;
    // The proxy records the client's POST of the answer when that instance's 202 comes back. The 202 and the answer's
    // trip over the bus to the tool's instance run side by side, so the tool's result may reach the client first.
    const answer = await vi.waitFor(
      () => {
        const record = proxy.forwarded.slice(from).find((forwarded) => forwarded.rpc === 'response');
        if (record === undefined) throw new Error('the answer was not forwarded yet');
        return record;
      },
      { timeout: 5_000, interval: 10 },
    );
    expect(answer.upstream).not.toBe(call.upstream);
    expect(text(result).endsWith(IDS[call.upstream]!)).toBe(true);
  });

  it('a stream cut on one instance is resumed on another, losing nothing', async () => {
    const client = await connect('legacy');
    const from = proxy.forwarded.length;
    // The network drops the call's response after its priming event and first progress.
    proxy.cutNext({ match: (record) => record.rpc === 'tools/call', afterEvents: 2 });
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'report', arguments: { steps: 5, delayMs: 40 } },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(text(result)).toMatch(/^reported 5 steps from [abc]$/);
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    const call = proxy.forwarded.slice(from).find((record) => record.rpc === 'tools/call')!;
    const resumed = proxy.forwarded.slice(from).filter((record) => record.httpMethod === 'GET');
    expect(resumed.some((get) => get.upstream !== call.upstream)).toBe(true);
  });

  it('subscriptions reach the client whichever instance announces the change (2026-07-28 listen, legacy subscribe)', async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const client = await connect(era);
      const updates: string[] = [];
      const subscription = await client.subscribe({ resources: ['memo://status'] }, (notification) => {
        if (notification.method === 'notifications/resources/updated') updates.push(notification.params.uri);
      });
      const announcers = new Set<string>();
      for (let round = 1; round <= 3; round++) {
        announcers.add(
          text(await client.callTool({ name: 'touch-status', arguments: {} }))
            .split(' ')
            .at(-1)!,
        );
        await waitFor(() => updates.length === round);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(updates).toEqual(['memo://status', 'memo://status', 'memo://status']);
      expect(announcers.size).toBeGreaterThan(1);
      await subscription.close();
    }
  });

  it('a task created on one instance is polled on another and cancelled through a third', async () => {
    const client = await connect('modern');
    const tasks = new TasksClient(client, { defaultPollIntervalMs: 50 });
    const from = proxy.forwarded.length;
    const task = await tasks.callToolAsTask({ name: 'build', arguments: { ms: 10_000 } });
    expect(task.immediate).toBe(false);
    // The tool sets its status message once it runs, after the task was created: under load a first poll can come
    // before it. Wait for it on an instance directly, so that the proxy's round robin (one request per instance, in
    // turn) still sends the one poll below and the cancel to the two other instances.
    const direct = new Client({ name: 'cluster-test-direct', version: '1.0.0' });
    await direct.connect(new StreamableHttpClientTransport(instances[0]!.url), { era: 'modern' });
    clients.push(direct);
    const watched = new TasksClient(direct).task(task.taskId);
    await waitFor(async () => (await watched.status()).statusMessage !== undefined);
    const status = await task.status();
    expect(status.status).toBe('working');
    expect(status.statusMessage).toMatch(/^building on [abc]$/);
    await task.cancel();
    expect((await task.status()).status).toBe('cancelled');
    const created = proxy.forwarded.slice(from).find((record) => record.rpc === 'tools/call')!;
    const polled = proxy.forwarded.slice(from).find((record) => record.rpc === 'tasks/get')!;
    const cancelled = proxy.forwarded.slice(from).find((record) => record.rpc === 'tasks/cancel')!;
    expect(new Set([created.upstream, polled.upstream, cancelled.upstream]).size).toBe(3);
    // The handler running on the creating instance was aborted by the cancel that landed elsewhere.
    await waitFor(async () => (await redis.get(`demo:cancelled:${task.taskId}`)) !== null);
    expect(await redis.get(`demo:cancelled:${task.taskId}`)).toBe(IDS[created.upstream]);
  });

  it('an instance killed mid-call: the client gets everything it sent, finishes on another instance, the session goes on', async () => {
    const client = await connect('legacy');
    const progress: string[] = [];
    const from = proxy.forwarded.length;
    let killed: InstanceProcess | undefined;
    const call = client.callTool(
      { name: 'report', arguments: { steps: 20, delayMs: 100 } },
      {
        onProgress: (p) => {
          progress.push(String(p.message));
          if (p.progress === 2 && killed === undefined) {
            const served = proxy.forwarded.slice(from).find((record) => record.rpc === 'tools/call')!;
            killed = instances[served.upstream]!;
            void killed.kill();
          }
        },
      },
    );
    const failure = await call.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ data: { reason: 'instance_gone', instance: killed!.id } });
    // What the killed instance sent before it died was delivered, each once, in order.
    expect(progress.slice(0, 2)).toEqual([`step 1 on ${killed!.id}`, `step 2 on ${killed!.id}`]);
    expect(new Set(progress).size).toBe(progress.length);
    // The client sends the call again: another instance finishes it, in the same session.
    const again = await client.callTool({ name: 'report', arguments: { steps: 2, delayMs: 5 } });
    expect(text(again)).toMatch(/^reported 2 steps from [abc]$/);
    expect(text(again).endsWith(killed!.id)).toBe(false);
    // Bring it back (a new process, the same name) for the tests that follow.
    const index = instances.indexOf(killed!);
    const restarted = await startInstance(killed!.id, redisServer.url);
    instances[index] = restarted;
    proxy.upstreams[index] = restarted.url;
  }, 30_000);

  it('keys expire: nothing a session, a stream, a nonce or a task left behind lives forever', async () => {
    const client = await connect('legacy');
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    await client.close();
    clients.splice(clients.indexOf(client), 1);
    const keys = await redis.keys('*');
    expect(keys.length).toBeGreaterThan(0);
    const forever: string[] = [];
    for (const key of keys) if ((await redis.pttl(key)) < 0) forever.push(key);
    expect(forever).toEqual([]);
  });

  it('Redis unreachable: 503 with a JSON-RPC error, no instance crashes, service resumes when Redis returns', async () => {
    const client = await connect('legacy');
    await redisServer.kill();
    const refused = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    const body = (await refused.json()) as { jsonrpc: string; error: { code: number; message: string } };
    expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    expect(body.error.message).toMatch(/Service Unavailable/);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'during the outage' } })).rejects.toThrow();
    for (const instance of instances) expect(instance.child.exitCode).toBeNull();
    // Redis comes back (empty: it kept nothing); the instances reconnect by themselves and serve new sessions.
    await redisServer.restart();
    await waitFor(async () => {
      try {
        const fresh = await connect('legacy');
        return text(await fresh.callTool({ name: 'echo', arguments: { text: 'back' } })) === 'back';
      } catch {
        return false;
      }
    }, 15_000);
  }, 30_000);
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
