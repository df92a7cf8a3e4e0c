import type { Implementation } from '@mcpkit/protocol';
import { jsonSchemaValidator } from './json-schema-validator';
import { LeanClient } from './lean-client';
import type { ClientOptions } from './options';

/**
 * An MCP client that speaks both eras: 2026-07-28 (stateless, `_meta` envelope on every request, `server/discover`,
 * input requests inside results) and 2024-11-05 … 2025-11-25 (`initialize` handshake, server→client requests).
 * `callTool` checks `structuredContent` against the tool's `outputSchema` with `jsonSchemaValidator`
 * (@cfworker/json-schema) unless `jsonSchema` names another validator; `LeanClient` is the same client without it.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'my-app', version: '1.0.0' }, {
 *   handlers: { elicitation: async (params) => ({ action: 'accept', content: { answer: 'yes' } }) },
 * });
 * await client.connect(transport); // probes server/discover, falls back to initialize
 * const { tools } = await client.listTools();
 * const result = await client.callTool({ name: tools[0]!.name, arguments: {} });
 * await client.close();
 * ```
 */
export class Client extends LeanClient {
  constructor(info: Implementation, options: ClientOptions = {}) {
    super(info, options.jsonSchema === undefined ? { ...options, jsonSchema: jsonSchemaValidator } : options);
  }
}
