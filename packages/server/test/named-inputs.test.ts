import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/index';
import { closeHarnesses, connect, dropClientViolations, initialize, type Loose, modern, rpcError } from './harness';

// Named input requests: `ctx.elicit(params, { key })` and `ctx.ask({ name: request, … })`, the same handler code in
// both eras (2026-07-28 input_required keys; legacy server→client requests).

afterEach(closeHarnesses);

const NAME = {
  message: 'What is your name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] },
};
const GREETING = {
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Generate a greeting' } }],
  maxTokens: 50,
};
const ALL_CAPS = { elicitation: { form: {} }, sampling: {}, roots: {} };
const ALICE = { action: 'accept', content: { name: 'Alice' } };
const HELLO = { role: 'assistant', content: { type: 'text', text: 'Hello there!' }, model: 'm' };

function namedServer() {
  const server = new McpServer({ name: 's', version: '1' });
  const runs: string[] = [];
  server.registerTool('one', {}, async (_args, ctx) => {
    runs.push('one');
    const answer = await ctx.elicit(NAME, { key: 'user_name' });
    return { content: [{ type: 'text', text: `Hello, ${answer.content?.name}!` }] };
  });
  server.registerTool('all', {}, async (_args, ctx) => {
    const { user_name, greeting, client_roots } = await ctx.ask({
      user_name: { method: 'elicitation/create', params: NAME },
      greeting: { method: 'sampling/createMessage', params: GREETING },
      client_roots: { method: 'roots/list' },
    });
    const text = (greeting.content as { text?: string }).text;
    return {
      content: [{ type: 'text', text: `${user_name.content?.name} / ${text} / ${client_roots.roots.length} roots` }],
    };
  });
  server.registerTool('twice', {}, async (_args, ctx) => {
    await ctx.elicit(NAME, { key: 'same' });
    await ctx.listRoots(undefined, { key: 'same' });
    return { content: [] };
  });
  server.registerTool('mixed', {}, async (_args, ctx) => {
    const first = await ctx.elicit(NAME, { key: 'step1' });
    const second = await ctx.createMessage(GREETING, { key: 'step2' });
    return { content: [{ type: 'text', text: `${first.content?.name} ${(second.content as { text: string }).text}` }] };
  });
  return { server, runs };
}

describe('modern: named input requests', () => {
  it('names the inputRequests key, and the answer under that key completes the call', async () => {
    const { server } = namedServer();
    const harness = await connect(server);
    const first = await harness.client.request<Loose>('tools/call', modern({ name: 'one' }, ALL_CAPS));
    expect(first.inputRequests).toEqual({ user_name: { method: 'elicitation/create', params: NAME } });
    const done = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'one', inputResponses: { user_name: ALICE }, requestState: first.requestState }, ALL_CAPS),
    );
    expect(done.content[0].text).toBe('Hello, Alice!');
  });

  it('ask() sends every named request in one input_required and returns the answers by name', async () => {
    const { server } = namedServer();
    const harness = await connect(server);
    const first = await harness.client.request<Loose>('tools/call', modern({ name: 'all' }, ALL_CAPS));
    expect(first.inputRequests).toEqual({
      user_name: { method: 'elicitation/create', params: NAME },
      greeting: { method: 'sampling/createMessage', params: GREETING },
      client_roots: { method: 'roots/list' },
    });
    const done = await harness.client.request<Loose>(
      'tools/call',
      modern(
        {
          name: 'all',
          inputResponses: { user_name: ALICE, greeting: HELLO, client_roots: { roots: [{ uri: 'file:///r' }] } },
          requestState: first.requestState,
        },
        ALL_CAPS,
      ),
    );
    expect(done.content[0].text).toBe('Alice / Hello there! / 1 roots');
  });

  it('takes answers sent without a requestState (ephemeral flow), ignoring extra keys', async () => {
    const { server, runs } = namedServer();
    const harness = await connect(server);
    const done = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'one', inputResponses: { user_name: ALICE, extra: { action: 'accept' } } }, ALL_CAPS),
    );
    expect(done.resultType).toBe('complete');
    expect(done.content[0].text).toBe('Hello, Alice!');
    expect(runs).toEqual(['one']);
  });

  it('re-asks when the answers without requestState miss the key; checks their shape; refuses a non-object', async () => {
    const { server } = namedServer();
    const harness = await connect(server);
    const again = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'one', inputResponses: { wrong_key: ALICE } }, ALL_CAPS),
    );
    expect(again.resultType).toBe('input_required');
    expect(Object.keys(again.inputRequests)).toEqual(['user_name']);
    const badShape = await rpcError(
      harness.client.request('tools/call', modern({ name: 'one', inputResponses: { user_name: 12345 } }, ALL_CAPS)),
    );
    expect(badShape).toMatchObject({ code: -32602, data: { key: 'user_name' } });
    const notObject = await rpcError(
      harness.client.request('tools/call', modern({ name: 'one', inputResponses: null }, ALL_CAPS)),
    );
    expect(notObject.code).toBe(-32602);
    dropClientViolations(harness); // the bad answers break the schema on purpose
  });

  it('named rounds follow one another, each with a fresh requestState', async () => {
    const { server } = namedServer();
    const harness = await connect(server);
    const first = await harness.client.request<Loose>('tools/call', modern({ name: 'mixed' }, ALL_CAPS));
    expect(Object.keys(first.inputRequests)).toEqual(['step1']);
    const second = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'mixed', inputResponses: { step1: ALICE }, requestState: first.requestState }, ALL_CAPS),
    );
    expect(Object.keys(second.inputRequests)).toEqual(['step2']);
    expect(second.requestState).not.toBe(first.requestState);
    const done = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'mixed', inputResponses: { step2: HELLO }, requestState: second.requestState }, ALL_CAPS),
    );
    expect(done.content[0].text).toBe('Alice Hello there!');
  });

  it('a key asked twice in one run is an error naming it', async () => {
    const { server } = namedServer();
    const harness = await connect(server);
    const first = await harness.client.request<Loose>('tools/call', modern({ name: 'twice' }, ALL_CAPS));
    const result = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'twice', inputResponses: { same: ALICE }, requestState: first.requestState }, ALL_CAPS),
    );
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/'same' was already asked/);
  });
});

describe('legacy: the same named asks as server→client requests', () => {
  it('ask() sends the requests concurrently and returns the answers by name; a single named ask works too', async () => {
    const { server } = namedServer();
    const harness = await connect(server);
    const seen: string[] = [];
    harness.client.setRequestHandler('elicitation/create', () => {
      seen.push('elicitation/create');
      return ALICE;
    });
    harness.client.setRequestHandler('sampling/createMessage', () => {
      seen.push('sampling/createMessage');
      return HELLO;
    });
    harness.client.setRequestHandler('roots/list', () => {
      seen.push('roots/list');
      return { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] };
    });
    await initialize(harness.client, '2025-11-25', ALL_CAPS);
    const all = await harness.client.request<Loose>('tools/call', { name: 'all' });
    expect(all.content[0].text).toBe('Alice / Hello there! / 2 roots');
    expect([...seen].sort()).toEqual(['elicitation/create', 'roots/list', 'sampling/createMessage']);
    const one = await harness.client.request<Loose>('tools/call', { name: 'one' });
    expect(one.content[0].text).toBe('Hello, Alice!');
    const twice = await harness.client.request<Loose>('tools/call', { name: 'twice' });
    expect(twice.isError).toBe(true);
    expect(twice.content[0].text).toMatch(/'same' was already asked/);
  });

  it('ask() refuses, before sending anything, a request the client did not declare', async () => {
    const { server } = namedServer();
    const harness = await connect(server);
    let sent = 0;
    harness.client.setRequestHandler('elicitation/create', () => {
      sent++;
      return ALICE;
    });
    await initialize(harness.client, '2025-11-25', { elicitation: {} });
    const result = await harness.client.request<Loose>('tools/call', { name: 'all' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/sampling/);
    expect(sent).toBe(0);
  });
});
