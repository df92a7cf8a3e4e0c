import { Client, type ClientOptions, type ConnectOptions } from '@mcpkit/client';
import { isModernVersion } from '@mcpkit/protocol';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';

// How every scenario connects: the era the suite asks for, through the public Client API.

export const clientInfo = { name: 'mcpkit-everything-client', version: '1.0.0' };

/**
 * The connection the suite asks for. The suite names the protocol version of its run in
 * MCP_CONFORMANCE_PROTOCOL_VERSION: 2026-07-28 means the stateless era (`server/discover`, the `_meta` envelope),
 * a dated version before it the `initialize` handshake. The era is fixed, the version is negotiated within it (so a
 * server that answers -32022 gets the retry with a version it supports). Without the variable (a run by hand): probe.
 */
export function connectOptions(): ConnectOptions {
  const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  if (version === undefined || version === '') return {};
  // (On Streamable HTTP a 2026-07-28 request is cancelled by closing its response stream: the transport does that.)
  return isModernVersion(version) ? { era: 'modern' } : { era: 'legacy' };
}

/** The scenario's context (MCP_CONFORMANCE_CONTEXT): credentials, tool calls to make and the like. */
export function conformanceContext(): Record<string, unknown> {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw === undefined || raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
}

/** A string field of the scenario's context, or an error naming it. */
export function contextString(field: string): string {
  const value = conformanceContext()[field];
  if (typeof value !== 'string') throw new Error(`MCP_CONFORMANCE_CONTEXT has no string ${field}`);
  return value;
}

/**
 * Connects a new client to `url` (through `fetch` when given), runs `run`, and closes it. `setup` runs before the
 * client connects: where extensions (`new SkillsClient(client)`) declare themselves.
 */
export async function withClient<T = undefined>(
  url: URL,
  run: (client: Client, extra: NoInfer<T>) => Promise<void>,
  options: { client?: ClientOptions; fetch?: typeof globalThis.fetch; setup?: (client: Client) => T } = {},
): Promise<void> {
  const client = new Client(clientInfo, options.client);
  const extra = options.setup?.(client) as T;
  const transport = new StreamableHttpClientTransport(url, options.fetch === undefined ? {} : { fetch: options.fetch });
  await client.connect(transport, connectOptions());
  try {
    await run(client, extra);
  } finally {
    await client.close();
  }
}
