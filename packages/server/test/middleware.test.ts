import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  forMethod,
  forPrompt,
  forResource,
  forTool,
  McpServer,
  RegistrationError,
  type ServerContext,
  type ServerMiddleware,
} from '../src/index';
import { closeHarnesses, connect, type Harness, initialize, type Loose, modern, rpcError, until } from './harness';

// server.use(): one onion around every inbound request and notification, on sessions (stdio, WebSocket and HTTP
// sessions are ServerSessions) and on Server.handle (stateless HTTP), in both eras. Transport-level proofs live in
// the transport packages; here the seam itself.

declare module '../src/index' {
  interface ContextVariableMap {
    user: { id: string };
  }
}

afterEach(closeHarnesses);

function server() {
  const mcp = new McpServer({ name: 'mw', version: '1.0.0' });
  mcp.registerTool(
    'echo',
    { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    (args, ctx) => ({
      content: [
        { type: 'text', text: `${String((args as { text?: string }).text)} by ${ctx.get('user')?.id ?? 'nobody'}` },
      ],
    }),
  );
  mcp.registerTool('slow', { inputSchema: { type: 'object' } }, async (_args, ctx) => {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 2_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(ctx.signal.reason);
      });
    });
    return { content: [{ type: 'text', text: 'late' }] };
  });
  mcp.registerPrompt('greet', {}, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }));
  mcp.registerResource('notes', 'note://one', {}, (uri) => ({ contents: [{ uri, text: 'one' }] }));
  return mcp;
}

async function legacy(mcp: McpServer): Promise<Harness> {
  const harness = await connect(mcp, { revision: '2025-11-25' });
  await initialize(harness.client, '2025-11-25');
  return harness;
}

async function modernSession(mcp: McpServer): Promise<Harness> {
  const harness = await connect(mcp, { revision: '2026-07-28' });
  return harness;
}

const call = (text: string) => ({ name: 'echo', arguments: { text } });

describe('server.use', () => {
  it('sees every request and notification of a legacy session, with era, version, id and session', async () => {
    const mcp = server();
    const seen: string[] = [];
    mcp.use(async (ctx, next) => {
      seen.push(
        ctx.kind === 'request'
          ? `${ctx.kind} ${ctx.method} ${ctx.era} ${ctx.protocolVersion} id=${String(ctx.requestId)} session=${ctx.session !== undefined}`
          : `${ctx.kind} ${ctx.method} ${ctx.era}`,
      );
      return next();
    });
    const harness = await legacy(mcp);
    await harness.client.request('tools/call', call('a'));
    await until(() => seen.length >= 3);
    expect(seen).toEqual([
      'request initialize legacy 2025-11-25 id=1 session=true',
      'notification notifications/initialized legacy',
      'request tools/call legacy 2025-11-25 id=2 session=true',
    ]);
    expect(harness.session.initialized).toBe(true);
  });

  it('sees modern requests on a session and through Server.handle (stateless), with the envelope version', async () => {
    const mcp = server();
    const seen: string[] = [];
    mcp.use((ctx, next) => {
      seen.push(`${ctx.method} ${ctx.era} ${ctx.protocolVersion} session=${ctx.session !== undefined}`);
      return next();
    });
    const harness = await modernSession(mcp);
    await harness.client.request('tools/call', modern(call('b')));
    const response = await mcp.handle({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: modern(call('c')) });
    expect((response as Loose).result.content[0].text).toBe('c by nobody');
    expect(seen).toEqual(['tools/call modern 2026-07-28 session=true', 'tools/call modern 2026-07-28 session=false']);
  });

  it('useOutbound sees and may change the notifications of a stateless request (Server.handle)', async () => {
    const mcp = server();
    mcp.registerTool('step', {}, async (_args, ctx) => {
      await ctx.progress(1, 2, 'half');
      return { content: [] };
    });
    mcp.useOutbound((message, next) => {
      message.params = { ...(message.params as Record<string, unknown>), _meta: { traceparent: 'seen' } };
      return next();
    });
    const sent: unknown[] = [];
    await mcp.handle(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: modern({ name: 'step' }, {}, { progressToken: 'p' }) },
      { notify: (notification) => void sent.push(notification) },
    );
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress: 1, total: 2, message: 'half', _meta: { traceparent: 'seen' } },
      },
    ]);
  });

  it('runs no middleware for a lookup a transport makes for itself (DispatchContext.internal)', async () => {
    const mcp = server();
    const seen: string[] = [];
    mcp.use((ctx, next) => {
      seen.push(ctx.method);
      return next();
    });
    const request = { jsonrpc: '2.0' as const, id: 0, method: 'tools/list', params: modern({}) };
    const internal = { requestId: 0, message: request, signal: new AbortController().signal, info: {}, internal: true };
    const listed = (await mcp.server.dispatch(request, { ...internal, notify: async () => {} }, undefined)) as Loose;
    expect(listed.tools.map((tool: { name: string }) => tool.name)).toContain('echo');
    expect(seen).toEqual([]);
    await mcp.server.dispatch(request, { ...internal, internal: false, notify: async () => {} }, undefined);
    expect(seen).toEqual(['tools/list']);
  });

  it('sees notifications delivered without a session (stateless transports call handleNotification)', async () => {
    const mcp = server();
    const seen: string[] = [];
    mcp.use((ctx, next) => {
      seen.push(`${ctx.kind} ${ctx.method} ${ctx.era ?? '-'}`);
      return next();
    });
    await mcp.server.handleNotification({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    await mcp.server.handleNotification({
      jsonrpc: '2.0',
      method: 'notifications/whatever',
      params: modern({}),
    });
    expect(seen).toEqual([
      'notification notifications/roots/list_changed -',
      'notification notifications/whatever modern',
    ]);
  });

  it('passes typed variables from middleware to the handler', async () => {
    const mcp = server();
    mcp.use((ctx, next) => {
      ctx.set('user', { id: `u-${ctx.auth?.clientId ?? 'anon'}` });
      return next();
    });
    const response = await mcp.handle(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern(call('x')) },
      { info: { auth: { token: 't', clientId: 'alice' } } },
    );
    expect((response as Loose).result.content[0].text).toBe('x by u-alice');
  });

  it('short-circuits with a result or an MCP error, and the handler never runs', async () => {
    const mcp = server();
    let handled = 0;
    mcp.registerTool('count', {}, () => {
      handled++;
      return { content: [] };
    });
    mcp.use(forTool('count', () => ({ content: [{ type: 'text', text: 'from cache' }] })));
    mcp.use(
      forMethod('prompts/*', () => {
        throw new JsonRpcError(-32042, 'Prompts are closed today', { retryAfterMs: 1000 });
      }),
    );
    const harness = await legacy(mcp);
    const result = await harness.client.request<Loose>('tools/call', { name: 'count', arguments: {} });
    expect(result.content[0].text).toBe('from cache');
    expect(handled).toBe(0);
    const error = await rpcError(harness.client.request('prompts/get', { name: 'greet' }));
    expect(error).toMatchObject({ code: -32042, message: 'Prompts are closed today', data: { retryAfterMs: 1000 } });
  });

  it('wraps next(): changes the result and retries', async () => {
    const mcp = server();
    let attempts = 0;
    mcp.registerTool('flaky', {}, () => {
      attempts++;
      if (attempts < 3) throw new JsonRpcError(-32603, 'transient');
      return { content: [{ type: 'text', text: `ok after ${attempts}` }] };
    });
    mcp.use(
      forTool('flaky', async (_ctx, next) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await next();
          } catch (error) {
            if (attempt >= 3) throw error;
          }
        }
      }),
    );
    mcp.use(
      forTool('*', async (_ctx, next) => {
        const result = (await next()) as Loose;
        return { ...result, _meta: { wrapped: true } };
      }),
    );
    const response = (await mcp.handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: modern({ name: 'flaky', arguments: {} }),
    })) as Loose;
    expect(response.result.content[0].text).toBe('ok after 3');
    expect(response.result._meta.wrapped).toBe(true);
  });

  it('runs after the era and capability checks: a refused request never reaches middleware', async () => {
    const mcp = server();
    const seen: string[] = [];
    mcp.use((ctx, next) => {
      seen.push(ctx.method);
      return next();
    });
    const missingEnvelope = await mcp.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: {} } });
    expect((missingEnvelope as Loose).error.code).toBe(-32602);
    const unknown = await mcp.handle({
      jsonrpc: '2.0',
      id: 2,
      method: 'logging/setLevel',
      params: modern({ level: 'info' }),
    });
    expect((unknown as Loose).error.code).toBe(-32601);
    expect(seen).toEqual([]);
  });

  it('filters by tool, prompt, resource and method glob', async () => {
    const mcp = server();
    const seen: string[] = [];
    const mark =
      (label: string): ServerMiddleware =>
      (_ctx, next) => {
        seen.push(label);
        return next();
      };
    mcp.use(forTool(['ec*'], mark('tool')));
    mcp.use(forPrompt('greet', mark('prompt')));
    mcp.use(forResource('note://*', mark('resource')));
    mcp.use('tools/list', mark('list'));
    const harness = await legacy(mcp);
    await harness.client.request('tools/call', call('a'));
    await harness.client
      .request('tools/call', { name: 'slow', arguments: {} }, { signal: AbortSignal.timeout(20) })
      .catch(() => {});
    await harness.client.request('prompts/get', { name: 'greet' });
    await harness.client.request('resources/read', { uri: 'note://one' });
    await harness.client.request('tools/list', {});
    expect(seen).toEqual(['tool', 'prompt', 'resource', 'list']);
  });

  it('a middleware that throws gives -32603 without internals, logged once; the message is configurable', async () => {
    const errors: Error[] = [];
    const mcp = new McpServer(
      { name: 'mw', version: '1.0.0' },
      { onError: (error) => errors.push(error), internalErrorMessage: 'Something went wrong on our side' },
    );
    mcp.registerTool('echo', {}, () => ({ content: [] }));
    mcp.use(async (_ctx, next) => next()); // an outer layer sees the error come out of next(): not logged again
    mcp.use(() => {
      throw new Error('connection string postgres://admin:hunter2@db');
    });
    const response = (await mcp.handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: modern({ name: 'echo', arguments: {} }),
    })) as Loose;
    expect(response.error).toEqual({ code: -32603, message: 'Something went wrong on our side' });
    expect(JSON.stringify(response)).not.toContain('hunter2');
    expect(errors.map((error) => error.message)).toEqual(['connection string postgres://admin:hunter2@db']);
  });

  it('a middleware that neither calls next nor returns is an error, not a hang', async () => {
    const errors: Error[] = [];
    const mcp = new McpServer({ name: 'mw', version: '1.0.0' }, { onError: (error) => errors.push(error) });
    mcp.registerTool('echo', {}, () => ({ content: [] }));
    mcp.use(() => undefined);
    const response = (await mcp.handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: modern({ name: 'echo', arguments: {} }),
    })) as Loose;
    expect(response.error.code).toBe(-32603);
    expect(errors[0]?.message).toMatch(/neither called next\(\) nor returned a result/);
  });

  it('use() on a connected server applies to later requests; the returned function removes it', async () => {
    const mcp = server();
    const harness = await legacy(mcp);
    const before = await harness.client.request<Loose>('tools/call', call('1'));
    expect(before.content[0].text).toBe('1 by nobody');
    const remove = mcp.use((ctx, next) => {
      ctx.set('user', { id: 'late' });
      return next();
    });
    const during = await harness.client.request<Loose>('tools/call', call('2'));
    expect(during.content[0].text).toBe('2 by late');
    remove();
    const after = await harness.client.request<Loose>('tools/call', call('3'));
    expect(after.content[0].text).toBe('3 by nobody');
  });

  it('gives middleware the abort signal of the request (cancellation reaches it)', async () => {
    const mcp = server();
    const reasons: unknown[] = [];
    mcp.use(
      forTool('slow', async (ctx, next) => {
        if (ctx.kind === 'request') ctx.signal.addEventListener('abort', () => reasons.push('aborted'));
        return next();
      }),
    );
    const harness = await legacy(mcp);
    const controller = new AbortController();
    const pending = harness.client.request(
      'tools/call',
      { name: 'slow', arguments: {} },
      { signal: controller.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await expect(pending).rejects.toThrow();
    await until(() => reasons.length === 1);
  });

  it('a middleware that does not call next swallows a notification', async () => {
    const mcp = server();
    mcp.use((ctx: ServerContext, next) => (ctx.method === 'notifications/initialized' ? undefined : next()));
    const harness = await connect(mcp, { revision: '2025-11-25' });
    await initialize(harness.client, '2025-11-25');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(harness.session.initialized).toBe(false);
  });
});

describe('server.useOutbound', () => {
  it('sees and can change every outbound notification and server→client request', async () => {
    const mcp = server();
    mcp.registerTool('chatty', {}, async (_args, ctx) => {
      await ctx.log('info', 'working');
      const roots = await ctx.listRoots();
      return { content: [{ type: 'text', text: JSON.stringify(roots.roots) }] };
    });
    const seen: string[] = [];
    mcp.useOutbound(async (message, next) => {
      seen.push(`${message.kind} ${message.method} related=${String(message.relatedRequestId)}`);
      if (message.kind === 'request') message.params = { ...message.params, _meta: { traceparent: '00-abc-def-01' } };
      return next();
    });
    const harness = await connect(mcp, { revision: '2025-11-25' });
    let rootsMeta: unknown;
    harness.client.setRequestHandler('roots/list', (params) => {
      rootsMeta = (params as Loose)?._meta;
      return { roots: [{ uri: 'file:///r', name: 'r' }] };
    });
    await initialize(harness.client, '2025-11-25', { roots: {} });
    const result = await harness.client.request<Loose>('tools/call', { name: 'chatty', arguments: {} });
    expect(result.content[0].text).toContain('file:///r');
    expect(rootsMeta).toEqual({ traceparent: '00-abc-def-01' });
    expect(seen).toEqual(['notification notifications/message related=2', 'request roots/list related=2']);
  });

  it('sees the notifications of a stateless request', async () => {
    const mcp = server();
    mcp.registerTool('progress', {}, async (_args, ctx) => {
      await ctx.progress(1, 2);
      return { content: [] };
    });
    const seen: string[] = [];
    mcp.useOutbound((message, next) => {
      seen.push(message.method);
      return next();
    });
    const sent: string[] = [];
    const params = modern({ name: 'progress', arguments: {} }, {}, { progressToken: 'p' });
    await mcp.handle(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params },
      { notify: (notification) => void sent.push(notification.method) },
    );
    expect(seen).toEqual(['notifications/progress']);
    expect(sent).toEqual(['notifications/progress']);
  });
});

describe('server.extend', () => {
  it('advertises the extension, routes its methods in both eras and installs its middleware', async () => {
    const mcp = server();
    const seen: string[] = [];
    mcp.extend({
      id: 'com.example/echo',
      declaration: { maxLength: 10 },
      methods: { 'com.example/echo': (params) => ({ echoed: (params as Loose)?.text ?? null }) },
      notifications: { 'com.example/ping': () => void seen.push('ping') },
      middleware: (ctx, next) => {
        seen.push(`mw ${ctx.method}`);
        return next();
      },
    });
    const discover = (await mcp.handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: modern({}),
    })) as Loose;
    expect(discover.result.capabilities.extensions).toEqual({ 'com.example/echo': { maxLength: 10 } });
    const modernCall = (await mcp.handle({
      jsonrpc: '2.0',
      id: 2,
      method: 'com.example/echo',
      params: modern({ text: 'm' }),
    })) as Loose;
    expect(modernCall.result.echoed).toBe('m');
    const harness = await legacy(mcp);
    expect(await harness.client.request('com.example/echo', { text: 'l' })).toEqual({ echoed: 'l' });
    await harness.client.notify('com.example/ping');
    await until(() => seen.includes('ping'));
    expect(seen).toContain('mw com.example/echo');
    expect(seen).toContain('mw com.example/ping');
    // No official schema knows an extension's methods: their messages are all the wire check may flag here.
    const { violations } = harness.checked;
    expect(violations.flatMap((violation) => violation.problems)).toEqual([
      'com.example/echo is not a request in 2025-11-25',
      'com.example/echo is not a request in 2025-11-25',
      'com.example/ping is not a notification in 2025-11-25',
    ]);
    violations.length = 0;
  });

  it('lets an extension own the methods the spec assigns to it (tasks/get for the tasks extension)', () => {
    const mcp = server();
    expect(() =>
      mcp.extend({
        id: 'io.modelcontextprotocol/tasks',
        methods: { 'tasks/get': () => ({}), 'tasks/update': () => ({}), 'tasks/cancel': () => ({}) },
      }),
    ).not.toThrow();
  });

  it('refuses twice the same id, a malformed id, a core method and a taken method, with nothing installed', () => {
    const mcp = server();
    mcp.extend({ id: 'com.example/a', methods: { 'com.example/a/run': () => ({}) } });
    const refused = (extension: Parameters<McpServer['extend']>[0]) => {
      try {
        mcp.extend(extension);
      } catch (error) {
        expect(RegistrationError.is(error)).toBe(true);
        return (error as RegistrationError).message;
      }
      throw new Error('expected a refusal');
    };
    expect(refused({ id: 'com.example/a' })).toMatch(/already registered/);
    for (const id of ['no-prefix', 'com.example/', '1com.example/x', 'com-.example/x', 'com.example/-x', 7]) {
      expect(refused({ id } as Loose)).toMatch(/not an extension identifier: dot-separated labels/);
    }
    expect(refused({ id: 'com.example/b', methods: { 'tools/call': () => ({}) } })).toMatch(
      /cannot register 'tools\/call': it is a method of MCP 2026-07-28/,
    );
    expect(refused({ id: 'com.example/c', methods: { 'com.example/a/run': () => ({}) } })).toMatch(
      /a handler is already registered/,
    );
    expect(refused({ id: 'com.example/d', methods: { 'tasks/get': () => ({}) } })).toMatch(/it is a method of MCP/);
    expect(Object.keys((mcp.server.capabilities as Loose).extensions)).toEqual(['com.example/a']);
  });
});

describe('ctx.rebind (the seam tasks are built on)', () => {
  function jobServer() {
    const mcp = server();
    mcp.registerTool('job', {}, async (_args, ctx) => {
      await ctx.progress(1, 2, 'half');
      const answer = await ctx.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } });
      await ctx.log('info', 'done');
      return { content: [{ type: 'text', text: `${answer.action} aborted=${ctx.signal.aborted}` }] };
    });
    const channel: { sent: string[]; asks: string[]; result?: Promise<unknown> } = { sent: [], asks: [] };
    const job = new AbortController();
    mcp.use(
      forTool('job', async (ctx, next) => {
        if (ctx.kind !== 'request') return next();
        ctx.rebind({
          signal: job.signal,
          notify: async (method) => void channel.sent.push(method),
          ask: async (input) => {
            channel.asks.push(`${input.method} ${input.key}`);
            return { action: 'accept', content: {} };
          },
        });
        channel.result = next();
        return { content: [{ type: 'text', text: 'started' }] };
      }),
    );
    return { mcp, channel };
  }

  it('runs the handler beyond its request, talking through the channel, in the modern era', async () => {
    const { mcp, channel } = jobServer();
    const params = modern(
      { name: 'job', arguments: {} },
      { elicitation: { form: {} } },
      { progressToken: 'p', logLevel: 'info' },
    );
    const response = (await mcp.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params })) as Loose;
    expect(response.result.content[0].text).toBe('started');
    const finished = (await channel.result) as Loose;
    expect(finished.content[0].text).toBe('accept aborted=false');
    expect(channel.sent).toEqual(['notifications/progress', 'notifications/message']);
    expect(channel.asks).toEqual(['elicitation/create elicit-1']);
  });

  it('the same in the legacy era, where asks would otherwise be server→client requests', async () => {
    const { mcp, channel } = jobServer();
    const harness = await connect(mcp, { revision: '2025-11-25' });
    await initialize(harness.client, '2025-11-25', { elicitation: {} });
    const result = await harness.client.request<Loose>('tools/call', { name: 'job', arguments: {} });
    expect(result.content[0].text).toBe('started');
    expect(((await channel.result) as Loose).content[0].text).toBe('accept aborted=false');
    expect(channel.asks).toEqual(['elicitation/create elicit-1']);
    expect(harness.notifications.map((n) => n.method)).not.toContain('notifications/progress');
  });
});

describe('info.onAccepted (how HTTP turns an early refusal into a status)', () => {
  it('is called once as the handler starts, after every middleware passed, and never for a refused request', async () => {
    const mcp = server();
    const order: string[] = [];
    mcp.use(async (ctx, next) => {
      order.push('middleware');
      if (ctx.kind === 'request' && (ctx.params as Loose)?.arguments?.text === 'refuse') {
        throw new JsonRpcError(403, 'refused');
      }
      return next();
    });
    const run = async (text: string) => {
      const accepted: string[] = [];
      const response = await mcp.handle(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern(call(text)) },
        { info: { onAccepted: () => accepted.push(text) } },
      );
      return { accepted, response: response as Loose };
    };
    const ok = await run('fine');
    expect(ok.accepted).toEqual(['fine']);
    expect(ok.response.result).toBeDefined();
    const refused = await run('refuse');
    expect(refused.accepted).toEqual([]);
    expect(refused.response.error.code).toBe(403);
    expect(order).toEqual(['middleware', 'middleware']);
  });
});
