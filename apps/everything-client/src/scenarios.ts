import type { ElicitRequestParams, ElicitResult } from '@mcpkit/protocol';
import { authExtensionScenarios } from './auth-extension-scenarios';
import { authScenarios } from './auth-scenarios';
import { withClient } from './connection';
import { modernScenarios } from './modern-scenarios';
import { skillsScenarios } from './skills-scenarios';

// What the everything-client does for each client scenario of the official conformance suite
// (@modelcontextprotocol/conformance). The suite starts a mock server, runs `pnpm start <url>` with
// MCP_CONFORMANCE_SCENARIO set, and judges what the mock server saw.

/** One scenario: drives a client against `url`. */
export type Scenario = (url: URL) => Promise<void>;

/**
 * Accepts an elicitation with every default of the requested schema filled in (SEP-1034): what a UI shows
 * pre-filled and the user confirms unchanged.
 */
export function acceptWithDefaults(params: ElicitRequestParams): ElicitResult {
  const content: Record<string, string | number | boolean | string[]> = {};
  const schema = (params as { requestedSchema?: { properties?: Record<string, { default?: unknown }> } })
    .requestedSchema;
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    const value = property.default;
    if (
      typeof value === 'string' ||
      typeof value === 'number' ||
      typeof value === 'boolean' ||
      (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    ) {
      content[name] = value as string | number | boolean | string[];
    }
  }
  return { action: 'accept', content };
}

/**
 * The scenarios by name; the others are in auth-scenarios.ts, auth-extension-scenarios.ts, modern-scenarios.ts and
 * skills-scenarios.ts.
 */
export const scenarios: Readonly<Record<string, Scenario>> = {
  ...authScenarios,
  ...authExtensionScenarios,
  ...modernScenarios,
  ...skillsScenarios,
  // The handshake itself is what is judged (protocol version, clientInfo). The mock server declares no capability.
  initialize: (url) =>
    withClient(url, async (client) => {
      if (client.serverInfo === undefined) throw new Error('connected without server info');
    }),

  // List the tools, then call add_numbers.
  tools_call: (url) =>
    withClient(url, async (client) => {
      const tools = await client.listTools();
      if (!tools.tools.some((tool) => tool.name === 'add_numbers')) throw new Error('add_numbers is not listed');
      const result = await client.callTool({ name: 'add_numbers', arguments: { a: 5, b: 3 } });
      console.log(JSON.stringify(result.content));
    }),

  // The server elicits with defaults for every primitive; the client answers with them filled in.
  'elicitation-sep1034-client-defaults': (url) =>
    withClient(
      url,
      async (client) => {
        const result = await client.callTool({ name: 'test_client_elicitation_defaults', arguments: {} });
        console.log(JSON.stringify(result.content));
      },
      { client: { handlers: { elicitation: (params) => acceptWithDefaults(params) } } },
    ),

  // The server closes the tools/call stream after a priming event with `retry: 500`; the transport resumes it with
  // GET + Last-Event-ID after 500 ms and gets the result there.
  'sse-retry': (url) =>
    withClient(url, async (client) => {
      await client.listTools();
      const result = await client.callTool({ name: 'test_reconnection', arguments: {} });
      console.log(JSON.stringify(result.content));
    }),
};
