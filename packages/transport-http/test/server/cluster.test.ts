import { Client } from '@mcpkit/client';
import type { LoggingMessageNotificationParams } from '@mcpkit/protocol';
import { type BusMessage, InProcessMessageBus, McpServer } from '@mcpkit/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createSseHandler,
  createStreamableHttpHandler,
  InMemoryEventStore,
  InMemorySessionStore,
  SseClientTransport,
  StreamableHttpClientTransport,
  type StreamableHttpHandler,
} from '../../src/index';

// Three instances of one server in one process, sharing a session store, an event store and a bus, behind a
// round-robin "load balancer" (a fetch that hands each request to the next instance): no two requests in a row land
// on the same instance, so every cross-instance path runs. store-redis and apps/cluster run the same over Redis and
// real processes.

const URL_ = 'http://127.0.0.1:3000/mcp';

/** The in-process bus, recording the kind of every message published (so tests see which path ran). */
class RecordingBus extends InProcessMessageBus {
  readonly kinds: string[] = [];

  override publish(topic: string, message: BusMessage): Promise<boolean> {
    this.kinds.push(String(message.t ?? message.type));
    return super.publish(topic, message);
  }
}

interface Instance {
  name: string;
  server: McpServer;
  handler: StreamableHttpHandler;
  /** Requests it served, by HTTP method. */
  served: string[];
  down: boolean;
}

function makeServer(handlerRef: { current?: StreamableHttpHandler }, gates: Map<string, () => void>): McpServer {
  const server = new McpServer({ name: 'cluster-test', version: '1.0.0' }, { listChangedDebounceMs: 1 });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('report', { inputSchema: z.object({ steps: z.number() }) }, async ({ steps }, ctx) => {
    for (let step = 1; step <= steps; step++) {
      await ctx.progress(step, steps, `step ${step}`);
      await ctx.log('info', `step ${step} done`);
      await ctx.log('debug', `step ${step} details`);
    }
    return { content: [{ type: 'text', text: `reported ${steps}` }] };
  });
  server.registerTool('ask', { inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
  });
  server.registerTool('cut', { inputSchema: z.object({}) }, async (_args, ctx) => {
    await ctx.progress(1, 3, 'before the cut');
    handlerRef.current?.closeSseStream(ctx);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await ctx.progress(2, 3, 'after the cut');
    return { content: [{ type: 'text', text: 'survived the cut' }] };
  });
  server.registerTool('hold', { inputSchema: z.object({ key: z.string() }) }, async ({ key }, ctx) => {
    await ctx.progress(1, 2, 'holding');
    await new Promise<void>((resolve, reject) => {
      gates.set(key, resolve);
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
    });
    return { content: [{ type: 'text', text: `released ${key}` }] };
  });
  server.registerResource('status', 'memo://status', {}, (uri) => ({ contents: [{ uri, text: 'ok' }] }));
  return server;
}

describe('Streamable HTTP scale-out: any instance serves any request', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  function cluster(count = 3) {
    const bus = new RecordingBus();
    const sessionStore = new InMemorySessionStore();
    const eventStore = new InMemoryEventStore();
    const gates = new Map<string, () => void>();
    const instances: Instance[] = [];
    for (let index = 0; index < count; index++) {
      const ref: { current?: StreamableHttpHandler } = {};
      const server = makeServer(ref, gates);
      const handler = createStreamableHttpHandler(server, {
        bus,
        sessionStore,
        eventStore,
        instanceId: `i${index}`,
        retryMs: 10,
        remoteStreamTimeoutMs: 1000,
      });
      ref.current = handler;
      instances.push({ name: `i${index}`, server, handler, served: [], down: false });
      cleanup.push(() => handler.close());
    }
    let next = 0;
    const fetchRoundRobin: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      for (let tries = 0; tries < count; tries++) {
        const instance = instances[next++ % count]!;
        if (instance.down) continue;
        instance.served.push(request.method);
        return instance.handler.handle(request);
      }
      throw new TypeError('fetch failed: every instance is down');
    };
    return { instances, bus, sessionStore, eventStore, gates, fetch: fetchRoundRobin };
  }

  async function legacyClient(fetchImpl: typeof fetch, logs?: LoggingMessageNotificationParams[]) {
    const client = new Client(
      { name: 'c', version: '1' },
      {
        handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) },
        onLogMessage: (params) => logs?.push(params),
      },
    );
    const transport = new StreamableHttpClientTransport(new URL(URL_), {
      fetch: fetchImpl,
      reconnect: { initialDelayMs: 5, maxDelayMs: 20, maxAttempts: 5 },
    });
    await client.connect(transport, { era: 'legacy' });
    cleanup.push(() => client.close());
    return { client, transport };
  }

  it('one legacy session is served by every instance: calls, log level, progress and logs, subscriptions', async () => {
    const { instances, sessionStore, fetch, bus } = cluster();
    const logs: LoggingMessageNotificationParams[] = [];
    const { client, transport } = await legacyClient(fetch, logs);
    expect(transport.sessionId).toBeDefined();
    expect(sessionStore.size).toBe(1);
    for (let call = 0; call < 6; call++) {
      const result = await client.callTool({ name: 'echo', arguments: { text: `call ${call}` } });
      expect(result.content).toEqual([{ type: 'text', text: `call ${call}` }]);
    }
    // Every instance served POSTs of the session, and each keeps a copy of it.
    for (const instance of instances)
      expect(instance.served.filter((method) => method === 'POST').length).toBeGreaterThan(1);
    for (const instance of instances) expect(instance.handler.sessionCount).toBe(1);

    // logging/setLevel lands on one instance; the call that logs lands on another and honours it.
    await client.setLoggingLevel('info');
    const progress: string[] = [];
    const result = await client.callTool(
      { name: 'report', arguments: { steps: 2 } },
      { onProgress: (p) => progress.push(String(p.message)) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'reported 2' }]);
    expect(progress).toEqual(['step 1', 'step 2']);
    expect(logs.map((log) => log.data)).toEqual(['step 1 done', 'step 2 done']);

    // resources/subscribe on one instance; the update is announced on another; the GET stream is the home's.
    const updates: string[] = [];
    const subscription = await client.subscribe({ resources: ['memo://status'] }, (notification) => {
      if (notification.method === 'notifications/resources/updated') updates.push(notification.params.uri);
    });
    await waitFor(() => instances.every((instance) => instance.handler.sessionCount === 1));
    instances[2]!.server.notifyResourceUpdated('memo://status');
    await waitFor(() => updates.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(updates).toEqual(['memo://status']); // once, though three instances hold a copy
    await subscription.close();
    // The GET stream was opened on an instance other than the home, and the state changes reached the others.
    expect(bus.kinds).toContain('attach');
    expect(bus.kinds).toContain('changed');
    expect(bus.kinds).toContain('resource_updated');
  });

  it('an elicitation sent from one instance is answered by a POST that lands on another', async () => {
    const { instances, fetch, bus } = cluster();
    const { client } = await legacyClient(fetch);
    for (let call = 0; call < 3; call++) {
      const before = instances.map((instance) => instance.served.length);
      const result = await client.callTool({ name: 'ask', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
      // The call and the answer (two POSTs) went to two different instances.
      const grew = instances.filter((instance, index) => instance.served.length > before[index]!);
      expect(grew.length).toBeGreaterThanOrEqual(2);
    }
    expect(bus.kinds.filter((kind) => kind === 'answer')).toHaveLength(3);
  });

  it('a stream cut on one instance is resumed on another, losing nothing', async () => {
    const { fetch, bus } = cluster();
    const { client } = await legacyClient(fetch);
    for (let call = 0; call < 3; call++) {
      const progress: string[] = [];
      const result = await client.callTool(
        { name: 'cut', arguments: {} },
        { onProgress: (p) => progress.push(String(p.message)) },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'survived the cut' }]);
      expect(progress).toEqual(['before the cut', 'after the cut']);
    }
    // Each resumption landed elsewhere and was fed by the instance running the call.
    expect(bus.kinds.filter((kind) => kind === 'attached').length).toBeGreaterThanOrEqual(3);
    expect(bus.kinds).toContain('ev');
  });

  it('list changes announced on one instance reach the session once, through its home', async () => {
    const { instances, fetch } = cluster();
    const { client } = await legacyClient(fetch);
    const changed: string[] = [];
    const subscription = await client.subscribe({ toolsListChanged: true }, (notification) =>
      changed.push(notification.method),
    );
    await client.callTool({ name: 'echo', arguments: { text: 'spread the copies' } });
    await client.callTool({ name: 'echo', arguments: { text: 'spread the copies' } });
    instances[1]!.server.server.sendListChanged('tools');
    await waitFor(() => changed.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(changed).toEqual(['notifications/tools/list_changed']);
    await subscription.close();
  });

  it('2026-07-28: a listen stream on one instance hears of updates announced on another', async () => {
    const { instances, fetch } = cluster();
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(new StreamableHttpClientTransport(new URL(URL_), { fetch }));
    cleanup.push(() => client.close());
    expect(client.era).toBe('modern');
    const updates: string[] = [];
    const subscription = await client.subscribe({ resources: ['memo://status'] }, (notification) => {
      if (notification.method === 'notifications/resources/updated') updates.push(notification.params.uri);
    });
    const holders = instances.filter((instance) => instance.server.server.listenStreams.size === 1);
    expect(holders).toHaveLength(1);
    const other = instances.find((instance) => instance !== holders[0])!;
    other.server.notifyResourceUpdated('memo://status');
    await waitFor(() => updates.length === 1);
    expect(updates).toEqual(['memo://status']);
    await subscription.close();
  });

  it('DELETE on one instance ends the session on all of them', async () => {
    const { instances, sessionStore, fetch } = cluster();
    const { client, transport } = await legacyClient(fetch);
    await client.callTool({ name: 'echo', arguments: { text: 'a' } });
    await client.callTool({ name: 'echo', arguments: { text: 'b' } });
    const sessionId = transport.sessionId!;
    await client.close();
    cleanup.pop();
    await waitFor(() => instances.every((instance) => instance.handler.sessionCount === 0));
    expect(await sessionStore.get(sessionId)).toBeUndefined();
    const response = await instances[1]!.handler.handle(
      new Request(URL_, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
      }),
    );
    expect(response.status).toBe(404);
  });

  it('an instance that dies mid-call: the client gets what it sent, then an error to send the call again', async () => {
    const { instances, gates, fetch } = cluster();
    const { client } = await legacyClient(fetch);
    const progress: string[] = [];
    const call = client.callTool(
      { name: 'hold', arguments: { key: 'k' } },
      { onProgress: (p) => progress.push(String(p.message)) },
    );
    await waitFor(() => gates.has('k'));
    const running = instances.find(
      (instance) => instance.served.at(-1) === 'POST' && instance.handler.sessionCount === 1,
    )!;
    // The instance running the call goes away: its copies close and it leaves the bus.
    running.down = true;
    await running.handler.close();
    await expect(call).rejects.toMatchObject({ data: { reason: 'instance_gone', instance: running.name } });
    expect(progress).toEqual(['holding']);
    // The session lives on: the next call completes on another instance.
    const again = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(again.content).toEqual([{ type: 'text', text: 'still here' }]);
  });

  it('the home instance goes away: the GET stream resumes on another, which takes over and delivers', async () => {
    const { instances, sessionStore, fetch } = cluster(2);
    const { client, transport } = await legacyClient(fetch);
    const updates: string[] = [];
    const subscription = await client.subscribe({ resources: ['memo://status'] }, (notification) => {
      if (notification.method === 'notifications/resources/updated') updates.push(notification.params.uri);
    });
    const home = (await sessionStore.get(transport.sessionId!))!.home;
    const gone = instances.find((instance) => instance.name === home)!;
    const other = instances.find((instance) => instance.name !== home)!;
    gone.down = true;
    await gone.handler.close();
    // The client's GET (held by the home, or proxied from it) ended: it resumes with Last-Event-ID on the other
    // instance, which has never held that stream.
    for (let i = 0; i < 200 && (await sessionStore.get(transport.sessionId!))?.home !== other.name; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    other.server.notifyResourceUpdated('memo://status');
    await waitFor(() => updates.length >= 1);
    expect(updates).toEqual(['memo://status']);
    await subscription.close();
  });
});

describe('legacy HTTP+SSE (2024-11-05) scale-out', () => {
  it('a POST that lands on another instance than the stream is handed over, answers and all', async () => {
    const bus = new InProcessMessageBus();
    const gates = new Map<string, () => void>();
    const handlers = [0, 1].map((index) =>
      createSseHandler(makeServer({}, gates), { bus, instanceId: `s${index}`, remoteTimeoutMs: 1000 }),
    );
    const served: number[] = [];
    let next = 0;
    const fetchRoundRobin: typeof fetch = async (input, init) => {
      const index = next++ % 2;
      served.push(index);
      return handlers[index]!.handle(new Request(input, init));
    };
    const client = new Client(
      { name: 'c', version: '1' },
      { handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) } },
    );
    await client.connect(new SseClientTransport(new URL('http://127.0.0.1:3000/sse'), { fetch: fetchRoundRobin }));
    for (let call = 0; call < 4; call++) {
      const result = await client.callTool({ name: 'echo', arguments: { text: `call ${call}` } });
      expect(result.content).toEqual([{ type: 'text', text: `call ${call}` }]);
    }
    const asked = await client.callTool({ name: 'ask', arguments: {} });
    expect(asked.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(new Set(served)).toEqual(new Set([0, 1]));
    expect(handlers.map((handler) => handler.sessionCount).sort()).toEqual([0, 1]);
    await client.close();
    await Promise.all(handlers.map((handler) => handler.close()));
  });
});

async function waitFor(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
