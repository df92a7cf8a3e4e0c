import type { Client, InputHandlers } from '@mcpkit/client';
import type { Tool } from '@mcpkit/protocol';
import { conformanceContext, withClient } from './connection';

// The client scenarios the suite added with 2026-07-28 (and JSON Schema 2020-12 preservation): the `_meta` envelope,
// multi round-trip requests, the standard and custom HTTP headers, and schemas passed through untouched. Each drives
// the public Client API only; what is judged is what the client put on the wire.

type Scenario = (url: URL) => Promise<void>;

/** Handlers for every kind of input request, so the client declares roots, sampling and elicitation. */
const everyHandler: InputHandlers = {
  elicitation: () => ({ action: 'accept', content: { confirmed: true } }),
  sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'everything-client' }),
  roots: () => ({ roots: [{ uri: 'file:///workspace', name: 'workspace' }] }),
};

/** Arguments for a tool from its input schema: a plain value of each required property's type. */
function sampleArguments(tool: Tool): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: unknown };
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const args: Record<string, unknown> = {};
  for (const name of required) {
    const type = schema.properties?.[name]?.type;
    args[name] = type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : 'us-west1';
  }
  return args;
}

async function logCall(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name, arguments: args });
  console.log(name, JSON.stringify(result.content));
}

export const modernScenarios: Readonly<Record<string, Scenario>> = {
  // The `_meta` envelope and MCP-Protocol-Version on every request; the mock answers the first one with -32022 and
  // the client retries with a version from the error's `supported` list.
  'request-metadata': (url) =>
    withClient(
      url,
      async (client) => {
        await client.listTools();
        await logCall(client, 'any_tool', {});
      },
      { client: { handlers: everyHandler, enforceServerCapabilities: false } },
    ),

  // input_required rounds: requestState echoed byte for byte and only when sent, a new JSON-RPC id per retry, an
  // unrelated call in between carrying neither, and a result without resultType taken as complete.
  'sep-2322-client-request-state': (url) =>
    withClient(
      url,
      async (client) => {
        await client.listTools();
        await Promise.all([logCall(client, 'test_mrtr_echo_state', {}), logCall(client, 'test_mrtr_unrelated', {})]);
        await logCall(client, 'test_mrtr_no_state', {});
        await logCall(client, 'test_mrtr_no_result_type', {});
      },
      { client: { handlers: everyHandler } },
    ),

  // Mcp-Method on every POST, Mcp-Name on tools/call, resources/read and prompts/get.
  'http-standard-headers': (url) =>
    withClient(url, async (client) => {
      const { tools } = await client.listTools();
      for (const tool of tools) await logCall(client, tool.name, {});
      const { resources } = await client.listResources();
      for (const resource of resources) await client.readResource({ uri: resource.uri });
      const { prompts } = await client.listPrompts();
      for (const prompt of prompts) await client.getPrompt({ name: prompt.name });
    }),

  // The tool calls of the scenario's context: parameters declared with x-mcp-header go out as Mcp-Param-* headers.
  'http-custom-headers': (url) =>
    withClient(url, async (client) => {
      await client.listTools();
      const calls = (conformanceContext().toolCalls ?? []) as Array<{
        name: string;
        arguments: Record<string, unknown>;
      }>;
      if (calls.length === 0) throw new Error('MCP_CONFORMANCE_CONTEXT has no toolCalls');
      for (const call of calls) await logCall(client, call.name, call.arguments);
    }),

  // Calls every tool the client kept: listTools drops the ones whose x-mcp-header declarations are invalid.
  'http-invalid-tool-headers': (url) =>
    withClient(url, async (client) => {
      const { tools } = await client.listTools();
      for (const tool of tools) await logCall(client, tool.name, sampleArguments(tool));
    }),

  // A network $ref in an input schema is data, never fetched.
  'json-schema-ref-no-deref': (url) =>
    withClient(url, async (client) => {
      const { tools } = await client.listTools();
      console.log(JSON.stringify(tools.map((tool) => tool.inputSchema)));
    }),

  // The input schema the client received goes back verbatim: nothing of 2020-12 was dropped on the way in.
  'json-schema-2020-12-preservation': (url) =>
    withClient(url, async (client) => {
      const { tools } = await client.listTools();
      const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
      if (focal === undefined) throw new Error('json_schema_2020_12_tool is not listed');
      await logCall(client, 'json_schema_echo', { schema: focal.inputSchema });
    }),
};
