import { McpServer, ResourceTemplate, type ServerRequestContext } from '@mcpkit/server';
import { z } from 'zod';
import { registerInputRequiredScenarios } from './input-required';
import { registerSkillsScenarios } from './skills-scenarios';
import { registerStatelessScenarios } from './stateless-scenarios';
import { registerTasksScenarios } from './tasks-scenarios';

// The features the official conformance suite (@modelcontextprotocol/conformance, server scenarios) calls by name.
// Each block says which scenario uses it.

/** A 1×1 red PNG: the smallest valid image for the image scenarios. */
const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A 44-byte WAV header with no samples: the smallest valid audio for tools-call-audio. */
const SILENT_WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

const delay = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Options of {@link createEverythingServer}. */
export interface EverythingServerOptions {
  /**
   * Closes the SSE stream of the request `ctx` serves, so the client must resume it with `Last-Event-ID`
   * (server-sse-polling). Supplied by the HTTP wiring, which owns the streams.
   */
  closeRequestStream?: (ctx: ServerRequestContext) => void;
}

/**
 * The everything-server: every tool, resource and prompt the conformance suite's server scenarios call.
 *
 * @example
 * ```ts
 * const server = await createEverythingServer();
 * await server.connect(transport);
 * ```
 */
export async function createEverythingServer(options: EverythingServerOptions = {}): Promise<McpServer> {
  const server = new McpServer(
    { name: 'mcpkit-everything-server', version: '1.0.0' },
    { instructions: 'The mcpkit conformance fixture.', capabilities: { completions: {} } },
  );

  // tools-call-simple-text
  server.registerTool('test_simple_text', { description: 'Returns a simple text response' }, () => ({
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  }));

  // tools-call-image
  server.registerTool('test_image_content', { description: 'Returns a 1x1 PNG image' }, () => ({
    content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }],
  }));

  // tools-call-audio
  server.registerTool('test_audio_content', { description: 'Returns a short WAV clip' }, () => ({
    content: [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }],
  }));

  // tools-call-embedded-resource
  server.registerTool('test_embedded_resource', { description: 'Returns an embedded resource' }, () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  }));

  // tools-call-mixed-content
  server.registerTool(
    'test_multiple_content_types',
    { description: 'Returns text, image and resource content' },
    () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );

  // tools-call-with-logging: three info messages, ~50 ms apart.
  server.registerTool(
    'test_tool_with_logging',
    { description: 'Sends log messages while it runs' },
    async (_args, ctx) => {
      await ctx.log('info', 'Tool execution started');
      await delay(50, ctx.signal);
      await ctx.log('info', 'Tool processing data');
      await delay(50, ctx.signal);
      await ctx.log('info', 'Tool execution completed');
      return { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] };
    },
  );

  // tools-call-with-progress: 0, 50, 100 of 100.
  server.registerTool(
    'test_tool_with_progress',
    { description: 'Reports progress while it runs' },
    async (_args, ctx) => {
      await ctx.progress(0, 100);
      await delay(50, ctx.signal);
      await ctx.progress(50, 100);
      await delay(50, ctx.signal);
      await ctx.progress(100, 100);
      return { content: [{ type: 'text', text: 'Tool with progress executed successfully' }] };
    },
  );

  // tools-call-error: a thrown error becomes {isError: true, content: [message]}.
  server.registerTool('test_error_handling', { description: 'Always fails' }, () => {
    throw new Error('This tool intentionally returns an error for testing');
  });

  // tools-call-sampling
  server.registerTool(
    'test_sampling',
    { description: 'Asks the client for an LLM completion', inputSchema: z.object({ prompt: z.string() }) },
    async ({ prompt }, ctx) => {
      const result = await ctx.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      const content = result.content as { type: string; text?: string } | Array<{ type: string; text?: string }>;
      const first = Array.isArray(content) ? content[0] : content;
      return { content: [{ type: 'text', text: `LLM response: ${first?.text ?? JSON.stringify(content)}` }] };
    },
  );

  // tools-call-elicitation
  server.registerTool(
    'test_elicitation',
    { description: 'Asks the user for information', inputSchema: z.object({ message: z.string() }) },
    async ({ message }, ctx) => {
      const result = await ctx.elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return {
        content: [
          {
            type: 'text',
            text: `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`,
          },
        ],
      };
    },
  );

  // elicitation-sep1034-defaults
  server.registerTool(
    'test_elicitation_sep1034_defaults',
    { description: 'Elicitation whose schema has defaults for every primitive type' },
    async (_args, ctx) => {
      const result = await ctx.elicit({
        message: 'Please review your profile (defaults are filled in)',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'Name', default: 'John Doe' },
            age: { type: 'integer', description: 'Age', default: 30 },
            score: { type: 'number', description: 'Score', default: 95.5 },
            status: {
              type: 'string',
              description: 'Status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verified', default: true },
          },
        },
      });
      return { content: [{ type: 'text', text: elicitationSummary(result) }] };
    },
  );

  // elicitation-sep1330-enums
  server.registerTool(
    'test_elicitation_sep1330_enums',
    { description: 'Elicitation with every enum variant of SEP-1330' },
    async (_args, ctx) => {
      const result = await ctx.elicit({
        message: 'Pick some options',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      } as Parameters<ServerRequestContext['elicit']>[0]);
      return { content: [{ type: 'text', text: elicitationSummary(result) }] };
    },
  );

  // json-schema-2020-12: the input schema must reach tools/list untouched: $schema, $defs, additionalProperties
  // (SEP-1613) and the wider 2020-12 vocabulary of SEP-2106 ($anchor, allOf/anyOf, if/then/else).
  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's conditional keyword, not a promise.
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
    },
    (args) => ({ content: [{ type: 'text', text: `Received: ${JSON.stringify(args)}` }] }),
  );

  // server-sse-polling: the HTTP wiring closes the response stream mid-call; the result arrives after the client
  // resumes with Last-Event-ID.
  server.registerTool(
    'test_reconnection',
    { description: 'Closes its SSE stream mid-call, then answers after the client reconnects' },
    async (_args, ctx) => {
      await delay(100, ctx.signal);
      options.closeRequestStream?.(ctx);
      await delay(200, ctx.signal);
      return { content: [{ type: 'text', text: 'Reconnection test completed successfully' }] };
    },
  );

  // resources-list, resources-read-text
  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A static text resource', mimeType: 'text/plain' },
    (uri) => ({
      contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    }),
  );

  // resources-read-binary
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A static binary resource (PNG)', mimeType: 'image/png' },
    (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: RED_PIXEL_PNG }] }),
  );

  // resources-subscribe, resources-unsubscribe
  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { description: 'A resource clients can subscribe to', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'Watched resource content' }] }),
  );

  // resources-templates-read
  server.registerResource(
    'template-data',
    new ResourceTemplate('test://template/{id}/data', {}),
    { description: 'Data by id', mimeType: 'application/json' },
    (uri, { id }) => ({
      contents: [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
        },
      ],
    }),
  );

  // prompts-get-simple
  server.registerPrompt('test_simple_prompt', { description: 'A prompt without arguments' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));

  // prompts-get-with-args, completion-complete
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two arguments',
      argsSchema: z.object({
        arg1: z.string().describe('First argument'),
        arg2: z.string().describe('Second argument'),
      }),
      complete: { arg1: (value) => ['paris', 'park', 'party', 'test'].filter((word) => word.startsWith(value)) },
    },
    ({ arg1, arg2 }) => ({
      messages: [
        { role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
      ],
    }),
  );

  // prompts-get-embedded-resource
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt that embeds a resource',
      argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );

  // prompts-get-with-image
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));

  registerInputRequiredScenarios(server);
  registerStatelessScenarios(server);
  registerTasksScenarios(server);
  await registerSkillsScenarios(server);
  return server;
}

function elicitationSummary(result: { action: string; content?: unknown }): string {
  return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
}
