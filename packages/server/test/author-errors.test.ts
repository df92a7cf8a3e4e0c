// Mistakes of the server's author are reported to the author, naming what is wrong and where: an invalid JSON Schema at
// registration, a malformed tool result at call time (both eras).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpServer, SchemaError, ToolResultError } from '../src/index';
import { findJsonSchemaProblem } from '../src/json-schema/json-schema-check';
import { closeHarnesses, connect, initialize, type Loose, modern } from './harness';

afterEach(closeHarnesses);

const server = () => new McpServer({ name: 's', version: '1' });
const ok = () => ({ content: [] });

function registrationError(register: () => unknown): SchemaError {
  try {
    register();
  } catch (error) {
    if (SchemaError.is(error)) return error;
    throw error;
  }
  throw new Error('registration did not throw');
}

describe('an invalid JSON Schema is refused at registration, naming the tool and the keyword', () => {
  it('type: "strin"', () => {
    const error = registrationError(() =>
      server().registerTool(
        'weather',
        { inputSchema: { type: 'object', properties: { city: { type: 'strin' } } } },
        ok,
      ),
    );
    expect(error.message).toBe(
      'Tool "weather" inputSchema: not a valid JSON Schema: at /properties/city/type, "type" must be one of "array", "boolean", "integer", "null", "number", "object", "string", or an array of them; got "strin"',
    );
    expect(error.data).toMatchObject({
      schema: 'Tool "weather" inputSchema',
      keyword: 'type',
      path: '/properties/city/type',
    });
  });

  it('properties: 5', () => {
    const error = registrationError(() =>
      server().registerTool('weather', { inputSchema: { type: 'object', properties: 5 } }, ok),
    );
    expect(error.message).toContain('Tool "weather" inputSchema: not a valid JSON Schema: at /properties,');
    expect(error.message).toContain('"properties" must be an object whose values are schemas; got 5');
  });

  it('in an outputSchema and a prompt argsSchema too', () => {
    expect(
      registrationError(() => server().registerTool('t', { outputSchema: { type: 'object', required: 'city' } }, ok))
        .message,
    ).toMatch(
      /^Tool "t" outputSchema: not a valid JSON Schema: at \/required, "required" must be an array of unique strings/,
    );
    expect(
      registrationError(() =>
        server().registerPrompt(
          'p',
          { argsSchema: { type: 'object', properties: { a: { type: 'string', minLength: -1 } } } },
          () => ({ messages: [] }),
        ),
      ).message,
    ).toMatch(
      /^Prompt "p" argsSchema: not a valid JSON Schema: at \/properties\/a\/minLength, .*non-negative integer; got -1$/,
    );
  });

  it('walks every place a subschema sits, and accepts what the meta-schemas accept', () => {
    expect(findJsonSchemaProblem({ items: [{ type: 'x' }] })?.path).toBe('/items/0/type');
    expect(findJsonSchemaProblem({ anyOf: [] })?.keyword).toBe('anyOf');
    expect(findJsonSchemaProblem({ $defs: { a: { pattern: '(' } } })?.path).toBe('/$defs/a/pattern');
    expect(findJsonSchemaProblem({ properties: { 'a/b': { enum: 1 } } })?.path).toBe('/properties/a~1b/enum');
    expect(findJsonSchemaProblem({ exclusiveMinimum: true }, true)).toBeUndefined(); // draft-04
    expect(findJsonSchemaProblem({ exclusiveMinimum: true })?.keyword).toBe('exclusiveMinimum');
    const valid = {
      type: ['string', 'null'],
      properties: { a: true, b: { items: { type: 'integer' }, minItems: 1, uniqueItems: true } },
      required: ['a'],
      additionalProperties: false,
      patternProperties: { '^x-': {} },
      dependentRequired: { a: ['b'] },
      allOf: [{ not: { const: 1 } }],
      if: { minimum: 0 },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
      then: { multipleOf: 0.5 },
      'x-custom': 'unknown keywords pass',
    };
    expect(findJsonSchemaProblem(valid)).toBeUndefined();
  });
});

describe('a malformed tool result is reported to the log and answered as a tool error naming the field', () => {
  const cases: Array<[string, unknown, string]> = [
    ['no content', { structuredContent: { a: 1 } }, 'content is required: an array of content blocks'],
    [
      'an unknown content type',
      { content: [{ type: 'txt', text: 'hi' }] },
      'content[0].type "txt" is not a content type',
    ],
    [
      'a missing field',
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', data: 'AA' },
        ],
      },
      'content[1].mimeType is required',
    ],
  ];
  for (const [what, result, field] of cases) {
    for (const era of ['modern', 'legacy'] as const) {
      it(`${what} (${era})`, async () => {
        const reported: Error[] = [];
        const mcp = new McpServer({ name: 's', version: '1' }, { onError: (error) => reported.push(error) });
        mcp.registerTool('broken', {}, () => result as Loose);
        const harness = await connect(mcp);
        let answer: Loose;
        if (era === 'modern') {
          answer = await harness.client.request<Loose>('tools/call', modern({ name: 'broken' }));
        } else {
          await initialize(harness.client, '2025-11-25');
          answer = await harness.client.request<Loose>('tools/call', { name: 'broken' });
        }
        expect(answer.isError).toBe(true);
        expect(answer.content[0].text).toContain(`Tool "broken" returned an invalid result: ${field}`);
        expect(reported).toHaveLength(1);
        expect(ToolResultError.is(reported[0])).toBe(true);
        expect((reported[0] as ToolResultError).data).toMatchObject({ tool: 'broken' });
        harness.checked.assertClean(); // what went out is a valid CallToolResult
      });
    }
  }

  it('content a revision does not have: audio in 2024-11-05; console.error without onError', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const mcp = server();
      mcp.registerTool('sound', {}, () => ({ content: [{ type: 'audio', data: 'AA', mimeType: 'audio/wav' }] }));
      const harness = await connect(mcp);
      await initialize(harness.client, '2024-11-05');
      const answer = await harness.client.request<Loose>('tools/call', { name: 'sound' });
      expect(answer.content[0].text).toBe(
        'Tool "sound" returned an invalid result: content[0].type "audio" content does not exist in 2024-11-05 (from 2025-03-26 on)',
      );
      expect(logged).toHaveBeenCalledTimes(1);
    } finally {
      logged.mockRestore();
    }
  });
});
