// `callTool` types `structuredContent` from the output schema the caller knows, and checks the result against it.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { McpClientError } from '../src/index';
import { complete, harness, modernServer } from './helpers/harness';

function weatherServer(structuredContent: unknown) {
  return harness({
    server: (peer) => {
      modernServer(peer, { tools: {} });
      peer.setRequestHandler('tools/call', () => complete({ content: [], structuredContent }));
    },
  });
}

describe('callTool: typed structuredContent', () => {
  it('from options.outputSchema (inline, no `as const`): typed and checked', async () => {
    const h = await weatherServer({ city: 'Paris', celsius: [18, 19] });
    const result = await h.client.callTool(
      { name: 'forecast', arguments: { city: 'Paris' } },
      {
        outputSchema: {
          type: 'object',
          properties: { city: { type: 'string' }, celsius: { type: 'array', items: { type: 'number' } } },
          required: ['city', 'celsius'],
        },
      },
    );
    expectTypeOf(result.structuredContent).toEqualTypeOf<{ city: string; celsius: number[] } | undefined>();
    expect(result.structuredContent?.celsius).toEqual([18, 19]);
    await h.client.close();
  });

  it('a result that does not match the given outputSchema is ERR_INVALID_STRUCTURED_CONTENT', async () => {
    const h = await weatherServer({ city: 'Paris', celsius: 'warm' });
    const outputSchema = {
      type: 'object',
      properties: { celsius: { type: 'array', items: { type: 'number' } } },
      required: ['celsius'],
    } as const;
    const error = await h.client.callTool({ name: 'forecast' }, { outputSchema }).catch((caught: unknown) => caught);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_STRUCTURED_CONTENT');
    await h.client.close();
  });

  it('from a type argument; without either, a record', async () => {
    const h = await weatherServer({ city: 'Paris' });
    const typed = await h.client.callTool<{ city: string }>({ name: 'forecast' });
    expectTypeOf(typed.structuredContent).toEqualTypeOf<{ city: string } | undefined>();
    expect(typed.structuredContent?.city).toBe('Paris');
    const plain = await h.client.callTool({ name: 'forecast' });
    expectTypeOf(plain.structuredContent).toEqualTypeOf<Record<string, unknown> | undefined>();
    await h.client.close();
  });
});
