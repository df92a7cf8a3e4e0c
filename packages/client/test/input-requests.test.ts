import type { JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  InputRequests,
  ListRootsRequest,
  ListRootsResult,
} from '@mcpkit/protocol';
import { missingRequiredClientCapabilityError } from '@mcpkit/protocol';
import { describe, expect, it, vi } from 'vitest';
import { type InputHandlers, McpClientError } from '../src/index';
import { cacheable, complete, harness, legacyServer, modernServer } from './helpers/harness';

const ELICIT: ElicitRequest = {
  method: 'elicitation/create',
  params: {
    message: 'Which city?',
    requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const SAMPLE: CreateMessageRequest = {
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }], maxTokens: 100 },
};
const ROOTS: ListRootsRequest = { method: 'roots/list', params: {} };

const SAMPLED: CreateMessageResult = {
  role: 'assistant',
  content: { type: 'text', text: 'A summary.' },
  model: 'test-model',
};
const ELICITED: ElicitResult = { action: 'accept', content: { city: 'Paris' } };
const ROOTED: ListRootsResult = { roots: [{ uri: 'file:///work', name: 'work' }] };

function allHandlers(): Required<InputHandlers> & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    sampling: vi.fn(async (_params, context) => {
      calls.push(`sampling:${context.key}:${context.era}:${context.forMethod}`);
      return SAMPLED;
    }),
    elicitation: vi.fn(async (_params, context) => {
      calls.push(`elicitation:${context.key}:${context.era}`);
      return ELICITED;
    }),
    roots: vi.fn(async (_params, context) => {
      calls.push(`roots:${context.key}:${context.era}`);
      return ROOTED;
    }),
  };
}

/** A modern tools/call that asks for input in scripted rounds, then completes. */
function multiRoundServer(
  rounds: Array<{ inputRequests?: InputRequests; requestState?: string }>,
  method = 'tools/call',
) {
  const seen: Array<Record<string, unknown>> = [];
  const setup = (peer: JsonRpcPeer) => {
    modernServer(peer, { tools: {}, prompts: {}, resources: {} });
    peer.setRequestHandler(method, (params) => {
      seen.push(params as Record<string, unknown>);
      const round = rounds[seen.length - 1];
      if (round) return { resultType: 'input_required', ...round };
      if (method === 'prompts/get') return complete({ messages: [] });
      if (method === 'resources/read') return cacheable({ contents: [{ uri: 'file:///x', text: 'x' }] }, 60_000);
      return complete({ content: [{ type: 'text', text: 'done' }] });
    });
  };
  return { seen, setup };
}

describe('input_required (2026-07-28)', () => {
  it('fulfils every input request, retries with a new id and echoes requestState byte for byte, over several rounds', async () => {
    // Unusual bytes on purpose: spaces, unicode, escapes, padding; the client must never touch them.
    const state1 = ' eyJ2IjoxfQ==.sig/+ é\u2028 "quoted" \\ ';
    const state2 = 'second-round-state';
    const script = multiRoundServer([
      { inputRequests: { 'elicit-1': ELICIT, 'sample-2': SAMPLE }, requestState: state1 },
      { inputRequests: { 'roots-3': ROOTS }, requestState: state2 },
    ]);
    const handlers = allHandlers();
    const h = await harness({ server: script.setup, client: { handlers } });
    const result = await h.client.callTool({ name: 'book', arguments: { nights: 2 } });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);

    const calls = h.requests('tools/call');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((call) => call.id)).size).toBe(3);
    expect(script.seen[0]).not.toHaveProperty('inputResponses');
    expect(script.seen[0]).not.toHaveProperty('requestState');
    expect(script.seen[1]!.requestState).toBe(state1);
    expect(script.seen[1]!.inputResponses).toEqual({ 'elicit-1': ELICITED, 'sample-2': SAMPLED });
    expect(script.seen[1]!.arguments).toEqual({ nights: 2 });
    // Responses and state apply to one retry only.
    expect(script.seen[2]!.requestState).toBe(state2);
    expect(script.seen[2]!.inputResponses).toEqual({ 'roots-3': ROOTED });
    for (const call of calls) {
      expect((call.params as { _meta: Record<string, unknown> })._meta['io.modelcontextprotocol/protocolVersion']).toBe(
        '2026-07-28',
      );
    }
    expect(handlers.calls.sort()).toEqual([
      'elicitation:elicit-1:modern',
      'roots:roots-3:modern',
      'sampling:sample-2:modern:tools/call',
    ]);
    await h.client.close();
    h.checked.assertClean();
  });

  it('omits requestState when the server sent none, and retries a requestState-only round without inputResponses', async () => {
    const script = multiRoundServer([{ inputRequests: { a: ELICIT } }, { requestState: 'only-state' }]);
    const h = await harness({ server: script.setup, client: { handlers: allHandlers() } });
    await h.client.callTool({ name: 'x' });
    expect(script.seen[1]).not.toHaveProperty('requestState');
    expect(script.seen[1]!.inputResponses).toEqual({ a: ELICITED });
    expect(script.seen[2]).not.toHaveProperty('inputResponses');
    expect(script.seen[2]!.requestState).toBe('only-state');
    await h.client.close();
    h.checked.assertClean();
  });

  it('works for prompts/get and resources/read; a read completed after input is not cached', async () => {
    const prompt = multiRoundServer([{ inputRequests: { a: ELICIT }, requestState: 's' }], 'prompts/get');
    const h = await harness({ server: prompt.setup, client: { handlers: allHandlers() } });
    await expect(h.client.getPrompt({ name: 'p' })).resolves.toMatchObject({ messages: [] });
    expect(prompt.seen).toHaveLength(2);
    await h.client.close();

    const read = multiRoundServer([{ inputRequests: { a: ROOTS }, requestState: 's' }], 'resources/read');
    const r = await harness({ server: read.setup, client: { handlers: allHandlers() } });
    await r.client.readResource({ uri: 'file:///x' });
    expect(read.seen).toHaveLength(2);
    // Second read: the server answers complete at once (ttl 60 s) — that one is cached, the retried one was not.
    await r.client.readResource({ uri: 'file:///x' });
    expect(read.seen).toHaveLength(3);
    await r.client.readResource({ uri: 'file:///x' });
    expect(read.seen).toHaveLength(3);
    await r.client.close();
    r.checked.assertClean();
  });

  it('refuses a declared capability without handler, and input the client did not declare, without retrying', async () => {
    const script = multiRoundServer([{ inputRequests: { ask: SAMPLE }, requestState: 's' }]);
    const h = await harness({
      server: script.setup,
      client: { capabilities: { sampling: {} }, handlers: { sampling: undefined as never } },
      manualConnect: true,
    }).catch((error: unknown) => error);
    // Declaring a capability without its handler is refused up front.
    expect(h).toBeInstanceOf(TypeError);

    const h2 = await harness({ server: script.setup, client: { handlers: { roots: async () => ROOTED } } });
    const error = await h2.client.callTool({ name: 'x' }).catch((e: unknown) => e);
    // Sampling was not declared (no handler), so the server broke the rule; the client says which capability.
    expect(McpClientError.is(error) && error.code).toBe('ERR_UNDECLARED_INPUT_REQUEST');
    expect(script.seen).toHaveLength(1);
    await h2.client.close();
  });

  it('reports ERR_NO_INPUT_HANDLER when a declared input kind has no handler', async () => {
    const script = multiRoundServer([{ inputRequests: { ask: ELICIT } }]);
    // A shared handlers object emptied after construction: the declared capability stays, the handler is gone.
    const handlers: InputHandlers = { elicitation: async () => ELICITED };
    const h = await harness({ server: script.setup, client: { handlers } });
    delete handlers.elicitation;
    const error = await h.client.callTool({ name: 'x' }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_NO_INPUT_HANDLER');
    expect((error as Error).message).toContain('handlers.elicitation');
    expect(script.seen).toHaveLength(1);
    await h.client.close();
  });

  it('refuses URL elicitation unless elicitation.url was declared', async () => {
    const url = {
      method: 'elicitation/create',
      params: { mode: 'url', url: 'https://example.com/login', message: 'Sign in' },
    } as const;
    const script = multiRoundServer([{ inputRequests: { login: url } }]);
    const h = await harness({ server: script.setup, client: { handlers: allHandlers() } });
    const error = await h.client.callTool({ name: 'x' }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_UNDECLARED_INPUT_REQUEST');
    expect((error as McpClientError).data.missing).toEqual(['elicitation.url']);
    await h.client.close();

    const accepting = multiRoundServer([{ inputRequests: { login: url }, requestState: 's' }]);
    const ok = await harness({
      server: accepting.setup,
      client: {
        capabilities: { elicitation: { form: {}, url: {} } },
        handlers: { elicitation: async () => ({ action: 'accept' }) },
      },
    });
    await ok.client.callTool({ name: 'x' });
    expect(accepting.seen[1]!.inputResponses).toEqual({ login: { action: 'accept' } });
    await ok.client.close();
    ok.checked.assertClean();
  });

  it('stops after maxInputRounds', async () => {
    const forever = Array.from({ length: 50 }, (_, index) => ({ requestState: `round-${index}` }));
    const script = multiRoundServer(forever);
    const h = await harness({ server: script.setup, client: { maxInputRounds: 3 } });
    const error = await h.client.callTool({ name: 'x' }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INPUT_ROUNDS_EXCEEDED');
    expect(script.seen).toHaveLength(4);
    await h.client.close();
  });

  it('rejects an input_required result with neither inputRequests nor requestState', async () => {
    const h = await harness({
      server: (peer) => {
        modernServer(peer, { tools: {} });
        peer.setRequestHandler('tools/call', () => ({ resultType: 'input_required' }));
      },
    });
    const error = await h.client.callTool({ name: 'x' }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_RESULT');
    await h.client.close();
  });
});

describe('legacy server→client requests use the same handlers', () => {
  it('answers sampling, elicitation and roots requests sent while a tool runs', async () => {
    const handlers = allHandlers();
    const answers: unknown[] = [];
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, { tools: {} });
        peer.setRequestHandler('tools/call', async (_params, ctx) => {
          answers.push(await ctx.request('sampling/createMessage', SAMPLE.params as never));
          answers.push(await ctx.request('elicitation/create', ELICIT.params as never));
          answers.push(await ctx.request('roots/list', {}));
          return { content: [{ type: 'text', text: 'ok' }] };
        });
      },
      client: { handlers },
    });
    await h.client.callTool({ name: 'x' });
    expect(answers).toEqual([SAMPLED, ELICITED, ROOTED]);
    expect(handlers.calls).toEqual([
      'sampling:undefined:legacy:undefined',
      'elicitation:undefined:legacy',
      'roots:undefined:legacy',
    ]);
    await h.client.close();
    h.checked.assertClean();
  });

  it('answers -32601 for a request the client has no handler for, and answers ping', async () => {
    let outcome: unknown;
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, { tools: {} });
        peer.setRequestHandler('tools/call', async (_params, ctx) => {
          outcome = await ctx
            .request('sampling/createMessage', SAMPLE.params as never)
            .catch((error: unknown) => error);
          await ctx.request('ping');
          return { content: [] };
        });
      },
    });
    await h.client.callTool({ name: 'x' });
    expect((outcome as { code?: number }).code).toBe(-32601);
    await h.client.close();
    h.checked.assertClean();
  });

  it('passes the abort signal to handlers when the server cancels its request', async () => {
    let signal: AbortSignal | undefined;
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, { tools: {} });
        peer.setRequestHandler('tools/call', async (_params, ctx) => {
          const controller = new AbortController();
          const pending = ctx.request('elicitation/create', ELICIT.params as never, { signal: controller.signal });
          setTimeout(() => controller.abort('user gave up'), 10);
          await pending.catch(() => {});
          return { content: [] };
        });
      },
      client: {
        handlers: {
          elicitation: (_params, context) =>
            new Promise((resolve) => {
              signal = context.signal;
              context.signal.addEventListener('abort', () => resolve({ action: 'cancel' }));
            }),
        },
      },
    });
    await h.client.callTool({ name: 'x' });
    expect(signal?.aborted).toBe(true);
    await h.client.close();
  });
});

describe('a server that must ask a client with no handler for it (2026-07-28 -32021)', () => {
  function askingServer(required: Record<string, unknown>) {
    return (peer: JsonRpcPeer) => {
      modernServer(peer, { tools: {} });
      // What @mcpkit/server answers when a tool calls ctx.elicit for a client that did not declare elicitation.
      peer.setRequestHandler('tools/call', () => {
        throw missingRequiredClientCapabilityError(required);
      });
    };
  }

  it('throws ERR_NO_INPUT_HANDLER naming the handler to pass to new Client(), as an input_required round does', async () => {
    const h = await harness({ server: askingServer({ elicitation: {} }) });
    const error = await h.client.callTool({ name: 'ask', arguments: {} }).catch((caught: unknown) => caught);
    expect(McpClientError.is(error) && error.code).toBe('ERR_NO_INPUT_HANDLER');
    expect((error as Error).message).toContain('pass handlers.elicitation to new Client()');
    expect((error as Error).message).not.toContain('_meta');
    expect((error as McpClientError).data).toMatchObject({ method: 'tools/call', handler: 'elicitation' });
    expect(((error as Error).cause as { code: number }).code).toBe(-32021);
    await h.client.close();
  });

  it('with the handler but not the capability asked for, says which capability to declare', async () => {
    const h = await harness({
      server: askingServer({ elicitation: { url: {} } }),
      client: { handlers: { elicitation: async () => ({ action: 'decline' }) } },
    });
    const error = await h.client.callTool({ name: 'ask', arguments: {} }).catch((caught: unknown) => caught);
    expect(McpClientError.is(error) && error.code).toBe('ERR_UNDECLARED_INPUT_REQUEST');
    expect((error as Error).message).toContain('{"elicitation":{"url":{}}}');
    await h.client.close();
  });

  it('leaves a -32021 about another capability as the server sent it', async () => {
    const h = await harness({ server: askingServer({ experimental: { x: {} } }) });
    const error = await h.client.callTool({ name: 'ask', arguments: {} }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32021 });
    await h.client.close();
  });
});
