import { describe, expect, it } from 'vitest';
import { complete, harness, legacyServer, modernServer } from './helpers/harness';

// The seams @mcpkit/tasks is built on, checked on their own (the tasks package tests them end to end).

const TASKS = 'io.modelcontextprotocol/tasks';

describe('client.answerInputRequests', () => {
  it('answers with the client’s own handlers, after checking the declared capabilities', async () => {
    const h = await harness({
      server: (peer) => modernServer(peer, { tools: {} }),
      client: {
        handlers: { elicitation: async (params) => ({ action: 'accept', content: { echo: params.message } }) },
      },
    });
    const answers = await h.client.answerInputRequests({
      a: {
        method: 'elicitation/create',
        params: { message: 'hi', requestedSchema: { type: 'object', properties: {} } },
      },
    });
    expect(answers).toEqual({ a: { action: 'accept', content: { echo: 'hi' } } });
    await expect(
      h.client.answerInputRequests({ b: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } } }),
    ).rejects.toMatchObject({ code: 'ERR_UNDECLARED_INPUT_REQUEST' });
    await h.client.close();
  });
});

describe('ClientInboundContext.rebind', () => {
  it('gives the handler of a server→client request the signal a middleware rebound it to', async () => {
    const job = new AbortController();
    let seen: AbortSignal | undefined;
    let finished: Promise<unknown> | undefined;
    const h = await harness({
      server: (peer) => legacyServer(peer, {}),
      connect: { protocolVersion: '2025-11-25' },
      client: {
        handlers: {
          sampling: async (_params, context) => {
            seen = context.signal;
            return { role: 'assistant', model: 'm', content: { type: 'text', text: 'x' } };
          },
        },
      },
    });
    h.client.use(async (ctx, next) => {
      if (ctx.direction !== 'inbound' || ctx.kind !== 'request') return next();
      ctx.rebind({ signal: job.signal });
      finished = next();
      return { role: 'assistant', model: 'm', content: { type: 'text', text: 'answered early' } };
    });
    const answer = await h.server.request('sampling/createMessage', { messages: [], maxTokens: 1 });
    expect(answer).toMatchObject({ content: { text: 'answered early' } });
    await finished;
    expect(seen).toBe(job.signal);
    await h.client.close();
  });
});

describe('subscribe({ taskIds })', () => {
  it('asks a 2026-07-28 listen stream for the tasks and reads back what was honoured', async () => {
    let filter: unknown;
    const h = await harness({
      server: (peer) => {
        modernServer(peer, { tools: {}, extensions: { [TASKS]: {} } } as never);
        peer.setRequestHandler('subscriptions/listen', async (params, ctx) => {
          filter = (params as { notifications: unknown }).notifications;
          await ctx.notify('notifications/subscriptions/acknowledged', {
            _meta: { 'io.modelcontextprotocol/subscriptionId': ctx.requestId },
            notifications: filter,
          });
          return new Promise(() => {});
        });
      },
    });
    const subscription = await h.client.subscribe({ taskIds: ['t1', 't2'] }, () => undefined);
    expect(filter).toEqual({ taskIds: ['t1', 't2'] });
    expect(subscription.honoured).toEqual({ taskIds: ['t1', 't2'] });
    await subscription.close();
    await h.client.close();
  });
});

describe('input_required ending in an extension-owned result', () => {
  it('hands the result back when the last round answers with a resultType an extension owns', async () => {
    let round = 0;
    const h = await harness({
      server: (peer) => {
        modernServer(peer, { tools: {} });
        peer.setRequestHandler('tools/call', () =>
          round++ === 0
            ? complete({ resultType: 'input_required', requestState: 's1' })
            : complete({
                resultType: 'task',
                taskId: 't',
                status: 'working',
                createdAt: 'x',
                lastUpdatedAt: 'x',
                ttlMs: 1,
              }),
        );
      },
    });
    h.client.extend({ id: TASKS, resultTypes: ['task'] });
    const result = await h.client.request('tools/call', { name: 'x', arguments: {} });
    expect(result).toMatchObject({ resultType: 'task', taskId: 't' });
    expect(round).toBe(2);
    await h.client.close();
  });
});
