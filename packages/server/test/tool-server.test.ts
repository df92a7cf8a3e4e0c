import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputRounds, jsonSchemaCompiler, McpServer, McpToolServer, SchemaError, Server, serverOf } from '../src/index';
import { closeHarnesses, connect, initialize, type Loose, modern, rpcError } from './harness';

afterEach(closeHarnesses);

const echo = ({ text }: { text: string }) => ({ content: [{ type: 'text' as const, text }] });

describe('McpToolServer: the lean, tools-only server', () => {
  it('serves zod tools in both eras and declares tools (and logging) only', async () => {
    const server = new McpToolServer({ name: 'lean', version: '1' });
    server.registerTool('echo', { inputSchema: { text: z.string() } }, echo);
    let harness = await connect(server);
    const modernCall = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'echo', arguments: { text: 'hi' } }),
    );
    expect(modernCall.content).toEqual([{ type: 'text', text: 'hi' }]);
    const invalid = await harness.client.request<Loose>('tools/call', modern({ name: 'echo', arguments: {} }));
    expect(invalid.isError).toBe(true);
    harness.checked.assertClean();
    await harness.close();

    harness = await connect(server);
    const init = await initialize(harness.client, '2025-11-25');
    expect(Object.keys(init.capabilities as object).sort()).toEqual(['logging', 'tools']);
    const legacyCall = await harness.client.request<Loose>('tools/call', { name: 'echo', arguments: { text: 'yo' } });
    expect(legacyCall.content).toEqual([{ type: 'text', text: 'yo' }]);
    // No resources, prompts or completion handlers: the methods are not there.
    expect((await rpcError(harness.client.request('prompts/list', {}))).code).toBe(-32601);
    expect((await rpcError(harness.client.request('resources/list', {}))).code).toBe(-32601);
  });

  it('refuses a plain JSON Schema without a compiler, saying how to enable it', () => {
    const server = new McpToolServer({ name: 'lean', version: '1' });
    const register = () =>
      server.registerTool(
        'echo',
        { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
        () => ({
          content: [],
        }),
      );
    expect(register).toThrow(SchemaError);
    expect(register).toThrow(/Tool "echo" inputSchema: .*jsonSchemaCompiler/);
  });

  it('validates plain JSON Schemas with jsonSchemaCompiler when given it', async () => {
    const server = new McpToolServer({ name: 'lean', version: '1' }, { jsonSchema: jsonSchemaCompiler });
    server.registerTool(
      'echo',
      { inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const },
      echo,
    );
    const harness = await connect(server);
    const ok = await harness.client.request<Loose>('tools/call', modern({ name: 'echo', arguments: { text: 'a' } }));
    expect(ok.content).toEqual([{ type: 'text', text: 'a' }]);
    const bad = await harness.client.request<Loose>('tools/call', modern({ name: 'echo', arguments: { text: 1 } }));
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(/\/text/);
  });

  it('McpServer is a McpToolServer that takes plain JSON Schemas by default', () => {
    const server = new McpServer({ name: 'full', version: '1' });
    expect(server).toBeInstanceOf(McpToolServer);
    expect(() =>
      server.registerTool(
        'echo',
        { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
        () => ({
          content: [],
        }),
      ),
    ).not.toThrow();
  });

  it('asks the client only with inputRounds, in both eras: without, the call fails naming the option', async () => {
    const FORM = { message: 'Sure?', requestedSchema: { type: 'object' as const, properties: {} } };
    const confirm = (server: McpToolServer) =>
      server.registerTool('confirm', {}, async (_args, ctx) => {
        const answer = await ctx.elicit(FORM);
        return { content: [{ type: 'text', text: answer.action }] };
      });
    const caps = { elicitation: { form: {} } };
    const refusal = { code: 'ERR_INPUT_ROUNDS_OFF', method: 'tools/call', input: 'elicitation/create' };

    const lean = new McpToolServer({ name: 'lean', version: '1' });
    confirm(lean);
    lean.registerTool('both', {}, async (_args, ctx) => {
      await ctx.ask({ roots: { method: 'roots/list' } });
      return { content: [] };
    });
    let harness = await connect(lean);
    const refused = await rpcError(harness.client.request('tools/call', modern({ name: 'confirm' }, caps)));
    expect(refused.code).toBe(-32603);
    expect(refused.message).toMatch(/inputRounds: new InputRounds\(\)/);
    expect(refused.data).toEqual(refusal);
    const refusedAsk = await rpcError(harness.client.request('tools/call', modern({ name: 'both' }, { roots: {} })));
    expect(refusedAsk.data).toEqual({ ...refusal, input: 'roots/list' });
    await harness.close();

    harness = await connect(lean);
    let asked = 0;
    harness.client.setRequestHandler('elicitation/create', () => {
      asked++;
      return { action: 'decline' };
    });
    await initialize(harness.client, '2025-11-25', caps);
    const legacyRefused = await rpcError(harness.client.request('tools/call', { name: 'confirm' }));
    expect(legacyRefused.data).toEqual(refusal);
    expect(asked).toBe(0); // nothing was sent
    await harness.close();

    const rounds = new McpToolServer({ name: 'lean', version: '1' }, { inputRounds: new InputRounds() });
    confirm(rounds);
    harness = await connect(rounds);
    const first = await harness.client.request<Loose>('tools/call', modern({ name: 'confirm' }, caps));
    expect(first.resultType).toBe('input_required');
    const done = await harness.client.request<Loose>(
      'tools/call',
      modern(
        { name: 'confirm', inputResponses: { 'elicit-1': { action: 'accept' } }, requestState: first.requestState },
        caps,
      ),
    );
    expect(done.content).toEqual([{ type: 'text', text: 'accept' }]);
    await harness.close();

    harness = await connect(rounds);
    harness.client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
    await initialize(harness.client, '2025-11-25', caps);
    const legacy = await harness.client.request<Loose>('tools/call', { name: 'confirm' });
    expect(legacy.content).toEqual([{ type: 'text', text: 'decline' }]);
  });

  it('serverOf finds the low-level Server of either class, or takes a Server as it is', () => {
    const lean = new McpToolServer({ name: 'lean', version: '1' });
    const full = new McpServer({ name: 'full', version: '1' });
    const low = new Server({ name: 'low', version: '1' });
    expect(serverOf(lean)).toBe(lean.server);
    expect(serverOf(full)).toBe(full.server);
    expect(serverOf(low)).toBe(low);
  });
});
