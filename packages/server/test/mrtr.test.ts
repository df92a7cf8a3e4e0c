import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/index';
import {
  closeHarnesses,
  connect,
  dropClientViolations,
  type Harness,
  initialize,
  type Loose,
  modern,
  rpcError,
  sleep,
} from './harness';

afterEach(closeHarnesses);

const FORM = {
  message: 'Which city?',
  requestedSchema: { type: 'object' as const, properties: { city: { type: 'string' as const } }, required: ['city'] },
};
const SAMPLE = {
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Say hi' } }],
  maxTokens: 10,
};
const ALL_CAPS = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };

function asking(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: 's', version: '1' }, options);
  const runs: string[] = [];
  const signals: AbortSignal[] = [];
  server.registerTool('plan', {}, async (_args, ctx) => {
    runs.push('start');
    signals.push(ctx.signal);
    const where = await ctx.elicit(FORM);
    runs.push(`elicited ${JSON.stringify(where.content)}`);
    const said = await ctx.createMessage(SAMPLE);
    runs.push('sampled');
    return { content: [{ type: 'text', text: `${where.content?.city}: ${JSON.stringify(said.content)}` }] };
  });
  server.registerTool('both', {}, async (_args, ctx) => {
    runs.push('both');
    const [roots, answer] = await Promise.all([ctx.listRoots(), ctx.elicit(FORM)]);
    return { content: [{ type: 'text', text: `${roots.roots.length} roots, ${answer.action}` }] };
  });
  server.registerTool('url', {}, async (_args, ctx) => {
    await ctx.elicit({ mode: 'url', message: 'Sign in', url: 'https://example.com/login' });
    return { content: [] };
  });
  server.registerTool('sample-tools', {}, async (_args, ctx) => {
    await ctx.createMessage({ ...SAMPLE, tools: [{ name: 'x', inputSchema: { type: 'object' } }] });
    return { content: [] };
  });
  server.registerPrompt('ask', {}, async (_args, ctx) => {
    const answer = await ctx.elicit(FORM);
    return { messages: [{ role: 'user', content: { type: 'text', text: String(answer.content?.city) } }] };
  });
  server.registerResource('secret', 'mem://secret', {}, async (uri, ctx) => {
    const answer = await ctx.elicit(FORM);
    return { contents: [{ uri, text: String(answer.content?.city) }] };
  });
  return { server, runs, signals };
}

describe('modern: multi round-trip requests', () => {
  it('input_required → retry with inputResponses + requestState → next ask → complete; code before an ask re-runs', async () => {
    const { server, runs, signals } = asking();
    const harness = await connect(server);
    const params = { name: 'plan', arguments: {} };
    const first = await harness.client.request<Loose>('tools/call', modern(params, ALL_CAPS));
    expect(first.resultType).toBe('input_required');
    expect(first.inputRequests).toEqual({ 'elicit-1': { method: 'elicitation/create', params: FORM } });
    expect(typeof first.requestState).toBe('string');
    expect(first).not.toHaveProperty('ttlMs');
    expect(first._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 's', version: '1' });
    expect(signals[0]!.aborted).toBe(true); // the first run was set aside

    const second = await harness.client.request<Loose>(
      'tools/call',
      modern(
        {
          ...params,
          inputResponses: { 'elicit-1': { action: 'accept', content: { city: 'Oslo' } } },
          requestState: first.requestState,
        },
        ALL_CAPS,
      ),
    );
    expect(second.resultType).toBe('input_required');
    expect(Object.keys(second.inputRequests)).toEqual(['sample-2']);
    expect(second.inputRequests['sample-2']).toEqual({ method: 'sampling/createMessage', params: SAMPLE });

    const third = await harness.client.request<Loose>(
      'tools/call',
      modern(
        {
          ...params,
          inputResponses: { 'sample-2': { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' } },
          requestState: second.requestState,
        },
        ALL_CAPS,
      ),
    );
    expect(third.resultType).toBe('complete');
    expect(third.content[0].text).toBe('Oslo: {"type":"text","text":"hi"}');
    expect(runs).toEqual([
      'start',
      'start',
      'elicited {"city":"Oslo"}',
      'start',
      'elicited {"city":"Oslo"}',
      'sampled',
    ]);
  });

  it('gathers concurrent asks into one input_required', async () => {
    const { server } = asking();
    const harness = await connect(server);
    const first = await harness.client.request<Loose>('tools/call', modern({ name: 'both' }, ALL_CAPS));
    expect(first.inputRequests).toEqual({
      'roots-1': { method: 'roots/list' },
      'elicit-2': { method: 'elicitation/create', params: FORM },
    });
    const done = await harness.client.request<Loose>(
      'tools/call',
      modern(
        {
          name: 'both',
          inputResponses: { 'roots-1': { roots: [{ uri: 'file:///a' }] }, 'elicit-2': { action: 'decline' } },
          requestState: first.requestState,
        },
        ALL_CAPS,
      ),
    );
    expect(done.content[0].text).toBe('1 roots, decline');
  });

  it('re-asks what the retry left unanswered, and ignores keys it did not ask', async () => {
    const { server } = asking();
    const harness = await connect(server);
    const first = await harness.client.request<Loose>('tools/call', modern({ name: 'both' }, ALL_CAPS));
    const again = await harness.client.request<Loose>(
      'tools/call',
      modern(
        {
          name: 'both',
          inputResponses: { 'roots-1': { roots: [] }, 'bogus-9': { action: 'accept' } },
          requestState: first.requestState,
        },
        ALL_CAPS,
      ),
    );
    expect(again.resultType).toBe('input_required');
    expect(Object.keys(again.inputRequests)).toEqual(['elicit-2']);
  });

  it('refuses answers that do not have the shape of their result (-32602)', async () => {
    const { server, runs } = asking();
    const harness = await connect(server);
    const first = await harness.client.request<Loose>('tools/call', modern({ name: 'plan' }, ALL_CAPS));
    const error = await rpcError(
      harness.client.request(
        'tools/call',
        modern(
          { name: 'plan', inputResponses: { 'elicit-1': { action: 'maybe' } }, requestState: first.requestState },
          ALL_CAPS,
        ),
      ),
    );
    expect(error).toMatchObject({ code: -32602, data: { key: 'elicit-1', method: 'elicitation/create' } });
    expect(runs).not.toContain('elicited undefined');
    dropClientViolations(harness); // the bad answer breaks the schema on purpose
  });

  it('works for prompts/get and resources/read; a retried read is not cacheable', async () => {
    const { server } = asking({ cacheHints: { default: { ttlMs: 1000, cacheScope: 'public' } } });
    const harness = await connect(server);
    const prompt = await harness.client.request<Loose>('prompts/get', modern({ name: 'ask' }, ALL_CAPS));
    expect(prompt.resultType).toBe('input_required');
    const got = await harness.client.request<Loose>(
      'prompts/get',
      modern(
        {
          name: 'ask',
          inputResponses: { 'elicit-1': { action: 'accept', content: { city: 'Rome' } } },
          requestState: prompt.requestState,
        },
        ALL_CAPS,
      ),
    );
    expect(got.messages[0].content.text).toBe('Rome');
    const read = await harness.client.request<Loose>('resources/read', modern({ uri: 'mem://secret' }, ALL_CAPS));
    expect(read.resultType).toBe('input_required');
    expect(read).not.toHaveProperty('ttlMs');
    const content = await harness.client.request<Loose>(
      'resources/read',
      modern(
        {
          uri: 'mem://secret',
          inputResponses: { 'elicit-1': { action: 'accept', content: { city: 'Lima' } } },
          requestState: read.requestState,
        },
        ALL_CAPS,
      ),
    );
    expect(content).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(content.contents[0].text).toBe('Lima');
  });

  describe('requestState is checked', () => {
    let harness: Harness | undefined;
    async function firstRound() {
      const { server } = asking({ requestStateTtlMs: 200 });
      harness = await connect(server);
      const first = await harness.client.request<Loose>('tools/call', modern({ name: 'plan' }, ALL_CAPS));
      return { server, state: first.requestState as string };
    }
    const answer = { 'elicit-1': { action: 'accept', content: { city: 'Oslo' } } };
    const retry = (params: Record<string, unknown>, method = 'tools/call') =>
      rpcError(harness!.client.request(method, modern({ inputResponses: answer, ...params }, ALL_CAPS)));

    it('tampered payload or MAC → -32602 signature', async () => {
      const { state } = await firstRound();
      const [body, mac] = state.split('.');
      const forged = JSON.parse(Buffer.from(body!, 'base64url').toString());
      forged.r = { 'elicit-1': { action: 'accept', content: { city: 'Forged' } } };
      const forgedBody = Buffer.from(JSON.stringify(forged)).toString('base64url');
      expect((await retry({ name: 'plan', requestState: `${forgedBody}.${mac}` })).data.reason).toBe('signature');
      const flipped = mac!.startsWith('A') ? `B${mac!.slice(1)}` : `A${mac!.slice(1)}`;
      expect((await retry({ name: 'plan', requestState: `${body}.${flipped}` })).data.reason).toBe('signature');
      expect((await retry({ name: 'plan', requestState: 'not-a-token' })).data.reason).toBe('malformed');
    });

    it('replayed → -32602 replayed (single use)', async () => {
      const { state } = await firstRound();
      const ok = await harness!.client.request<Loose>(
        'tools/call',
        modern({ name: 'plan', inputResponses: answer, requestState: state }, ALL_CAPS),
      );
      expect(ok.resultType).toBe('input_required');
      const replay = await retry({ name: 'plan', requestState: state });
      expect(replay).toMatchObject({ code: -32602, data: { reason: 'replayed' } });
    });

    it('expired → -32602 expired', async () => {
      const { state } = await firstRound();
      await sleep(250);
      expect((await retry({ name: 'plan', requestState: state })).data.reason).toBe('expired');
    });

    it('different params or method → -32602', async () => {
      const { state } = await firstRound();
      expect((await retry({ name: 'plan', arguments: { extra: 1 }, requestState: state })).data.reason).toBe('params');
      expect((await retry({ name: 'ask', requestState: state }, 'prompts/get')).data.reason).toBe('method');
    });

    it('a token issued to one principal is refused for another', async () => {
      const { server } = asking();
      const alice = { info: { auth: { token: 't1', clientId: 'app', subject: 'alice' } } };
      const bob = { info: { auth: { token: 't2', clientId: 'app', subject: 'bob' } } };
      const first = await server.handle(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern({ name: 'plan' }, ALL_CAPS) },
        alice,
      );
      const state = (first as Loose).result.requestState;
      const params = modern({ name: 'plan', inputResponses: answer, requestState: state }, ALL_CAPS);
      const stolen = await server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params }, bob);
      expect(stolen).toMatchObject({ error: { code: -32602, data: { reason: 'principal' } } });
      const own = await server.handle({ jsonrpc: '2.0', id: 3, method: 'tools/call', params }, alice);
      expect((own as Loose).result.resultType).toBe('input_required'); // next ask: sampling
    });

    it('a token from another server (different secret) is refused; a shared secret works across instances', async () => {
      const a = asking({ requestStateSecret: 'shared-secret-1' }).server;
      const b = asking({ requestStateSecret: 'shared-secret-1' }).server;
      const c = asking({ requestStateSecret: 'another-secret' }).server;
      const first = (await a.handle({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: modern({ name: 'plan' }, ALL_CAPS),
      })) as Loose;
      const params = modern(
        { name: 'plan', inputResponses: answer, requestState: first.result.requestState },
        ALL_CAPS,
      );
      expect(await c.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params })).toMatchObject({
        error: { data: { reason: 'signature' } },
      });
      expect(
        ((await b.handle({ jsonrpc: '2.0', id: 3, method: 'tools/call', params })) as Loose).result.inputRequests,
      ).toHaveProperty('sample-2');
    });
  });

  it('asks the request did not declare a capability for → -32021 with requiredCapabilities', async () => {
    const { server } = asking();
    const harness = await connect(server);
    const noElicit = await rpcError(harness.client.request('tools/call', modern({ name: 'plan' }, { sampling: {} })));
    expect(noElicit).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    const noUrl = await rpcError(harness.client.request('tools/call', modern({ name: 'url' }, { elicitation: {} })));
    expect(noUrl).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
    const noTools = await rpcError(
      harness.client.request('tools/call', modern({ name: 'sample-tools' }, { sampling: {} })),
    );
    expect(noTools).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: { tools: {} } } } });
    // With the capability declared, the same URL ask becomes an input request.
    const ok = await harness.client.request<Loose>('tools/call', modern({ name: 'url' }, { elicitation: { url: {} } }));
    expect(ok.inputRequests['elicit-1'].params).toEqual({
      mode: 'url',
      message: 'Sign in',
      url: 'https://example.com/login',
    });
  });
});

describe('legacy: real server→client requests', () => {
  it('elicitation, sampling and roots reach the client, answers reach the handler', async () => {
    const { server } = asking();
    const harness = await connect(server);
    const asked: string[] = [];
    harness.client.setRequestHandler('elicitation/create', (params) => {
      asked.push(`elicit ${(params as { message: string }).message}`);
      return { action: 'accept', content: { city: 'Bern' } };
    });
    harness.client.setRequestHandler('sampling/createMessage', () => {
      asked.push('sample');
      return { role: 'assistant', content: { type: 'text', text: 'hey' }, model: 'm' };
    });
    harness.client.setRequestHandler('roots/list', () => {
      asked.push('roots');
      return { roots: [{ uri: 'file:///x' }, { uri: 'file:///y' }] };
    });
    await initialize(harness.client, '2025-11-25', ALL_CAPS);
    const plan = await harness.client.request<Loose>('tools/call', { name: 'plan' });
    expect(plan.content[0].text).toBe('Bern: {"type":"text","text":"hey"}');
    const both = await harness.client.request<Loose>('tools/call', { name: 'both' });
    expect(both.content[0].text).toBe('2 roots, accept');
    expect(asked).toEqual(['elicit Which city?', 'sample', 'roots', 'elicit Which city?']);
  });

  it('never sends an ask the client did not declare; the tool gets an error naming it', async () => {
    const { server } = asking();
    const harness = await connect(server);
    let asked = 0;
    harness.client.setRequestHandler('elicitation/create', () => {
      asked++;
      return { action: 'cancel' };
    });
    await initialize(harness.client, '2025-11-25', { sampling: {} });
    const result = await harness.client.request<Loose>('tools/call', { name: 'plan' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/elicitation/);
    expect(asked).toBe(0);
  });

  it('elicitation does not exist before 2025-06-18', async () => {
    const { server } = asking();
    const harness = await connect(server);
    await initialize(harness.client, '2025-03-26', ALL_CAPS);
    const result = await harness.client.request<Loose>('tools/call', { name: 'plan' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/2025-06-18/);
  });
});
