import type { McpServer } from '@mcpkit/server';

// What the suite's 2026-07-28 server scenarios call besides the input-required tools: the diagnostic tools of
// `server-stateless` (SEP-2575) and a tool with an `x-mcp-header` parameter for `http-custom-header-server-validation`
// (SEP-2243). The behaviour they probe is the server's own (capability checks, log levels, list-changed delivery on
// `subscriptions/listen`, Mcp-Param header validation); the tools only give the suite something to call.

/** Registers the diagnostic tools and the custom-header tool. */
export function registerStatelessScenarios(server: McpServer): void {
  // server-stateless: asks the client's model, which needs the `sampling` capability; a request that did not declare
  // it gets MissingRequiredClientCapabilityError (-32021, HTTP 400) from the server before anything is asked.
  server.registerTool(
    'test_missing_capability',
    { description: 'Needs the sampling capability: asks the client model a question' },
    async (_args, ctx) => {
      const answer = await ctx.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
        maxTokens: 20,
      });
      return { content: [{ type: 'text', text: `The model said: ${JSON.stringify(answer.content)}` }] };
    },
  );

  // server-stateless: an elicitation in 2026-07-28 is an input_required result on the response stream, never an
  // independent server→client request.
  server.registerTool(
    'test_streaming_elicitation',
    { description: 'Reports progress, then asks the user a question' },
    async (_args, ctx) => {
      await ctx.progress(0, 1, 'about to ask');
      const answer = await ctx.elicit({
        message: 'Continue?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      });
      return { content: [{ type: 'text', text: `action=${answer.action}` }] };
    },
  );

  // server-stateless: logs at every level; in 2026-07-28 nothing is sent unless the request set a logLevel.
  server.registerTool('test_logging_tool', { description: 'Logs a message at each level' }, async (_args, ctx) => {
    await ctx.log('debug', 'debug message');
    await ctx.log('info', 'info message');
    await ctx.log('error', 'error message');
    return { content: [{ type: 'text', text: 'logged' }] };
  });

  // server-stateless: mutate the tool and prompt lists, so listen streams that asked for it get list_changed.
  // A tool and a prompt that come and go: disabled and enabled again, so the lists end as they began.
  const dynamicTool = server.registerTool(
    'test_dynamic_tool',
    { description: 'Exists to be toggled by test_trigger_tool_change' },
    () => ({ content: [{ type: 'text', text: 'dynamic' }] }),
  );
  const dynamicPrompt = server.registerPrompt(
    'test_dynamic_prompt',
    { description: 'Exists to be toggled by test_trigger_prompt_change' },
    () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'dynamic' } }] }),
  );
  server.registerTool(
    'test_trigger_tool_change',
    { description: 'Changes the tool list (notifications/tools/list_changed)' },
    () => {
      dynamicTool.disable();
      dynamicTool.enable();
      return { content: [{ type: 'text', text: 'tool list changed' }] };
    },
  );
  server.registerTool(
    'test_trigger_prompt_change',
    { description: 'Changes the prompt list (notifications/prompts/list_changed)' },
    () => {
      dynamicPrompt.disable();
      dynamicPrompt.enable();
      return { content: [{ type: 'text', text: 'prompt list changed' }] };
    },
  );

  // http-custom-header-server-validation: `region` is mirrored in `Mcp-Param-Region`; the HTTP handler decodes the
  // header (`=?base64?…?=`) and refuses a request whose header is missing, malformed or differs from the body.
  server.registerTool(
    'test_custom_header_tool',
    {
      description: 'Echoes a region that clients mirror in the Mcp-Param-Region header',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', description: 'Where to run', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
    },
    (args) => ({ content: [{ type: 'text', text: `region=${String((args as { region?: unknown }).region)}` }] }),
  );
}
