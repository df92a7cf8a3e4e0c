import { createLinkedTransports, JsonRpcPeer, type MessageInfo } from '@mcpkit/jsonrpc-core';
import { buildRequestMeta, type ClientCapabilities, type LoggingLevel, mcpPeerHooks } from '@mcpkit/protocol';
import { type CheckedTransport, checkWire, type Revision } from '@mcpkit/testkit';
import type { McpToolServer, Server, ServerSession } from '../src/index';

/** What tests read results as: the wire checker validates the shape, the tests pick fields. */
// biome-ignore lint/suspicious/noExplicitAny: results are read loosely in tests; checkWire validates their shape
export type Loose = any;

export const MODERN = '2026-07-28';
export const LEGACY_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const CLIENT_INFO = { name: 'test-client', version: '1.0.0' };

export interface Harness {
  client: JsonRpcPeer;
  checked: CheckedTransport;
  session: ServerSession;
  /** Notifications the client received, in order. */
  notifications: Array<{ method: string; params: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** The harnesses `connect` opened since the last {@link closeHarnesses}. */
const opened: Harness[] = [];

/** Connects a raw JSON-RPC client (with MCP hooks) to the server through a wire-checked in-memory pair. */
export async function connect(
  server: McpToolServer | Server,
  options: { revision?: Revision; messageInfo?: MessageInfo; fixEra?: boolean } = {},
): Promise<Harness> {
  const [clientSide, serverSide] = createLinkedTransports(
    options.messageInfo ? { second: { messageInfo: options.messageInfo } } : undefined,
  );
  const checked = checkWire(serverSide, { side: 'server', revision: options.revision ?? 'auto' });
  const session = await server.connect(checked, { fixEra: options.fixEra });
  const client = new JsonRpcPeer({ hooks: mcpPeerHooks, defaultTimeoutMs: 5_000 });
  const notifications: Harness['notifications'] = [];
  client.router.fallbackNotificationHandler = (params, ctx) => {
    notifications.push({ method: ctx.method, params: (params ?? {}) as Record<string, unknown> });
  };
  await client.connect(clientSide);
  const harness: Harness = { client, checked, session, notifications, close: () => client.close() };
  opened.push(harness);
  return harness;
}

/**
 * Checks the wire of every harness the test opened (a message that breaks the spec fails the test; see
 * `dropClientViolations` for the tests that send one on purpose) and closes them. In a test file:
 * `afterEach(closeHarnesses)`.
 */
export async function closeHarnesses(): Promise<void> {
  const harnesses = opened.splice(0);
  try {
    for (const harness of harnesses) harness.checked.assertClean();
  } finally {
    await Promise.all(harnesses.map((harness) => harness.close()));
  }
}

/** Params with the 2026-07-28 envelope. */
export function modern(
  params: Record<string, unknown> = {},
  capabilities: ClientCapabilities = {},
  extra: { logLevel?: LoggingLevel; progressToken?: string | number; version?: string } = {},
): Record<string, unknown> {
  return {
    ...params,
    _meta: buildRequestMeta({
      protocolVersion: extra.version ?? MODERN,
      clientCapabilities: capabilities,
      clientInfo: CLIENT_INFO,
      logLevel: extra.logLevel,
      progressToken: extra.progressToken,
    }),
  };
}

/** Runs the legacy handshake. */
export async function initialize(
  client: JsonRpcPeer,
  protocolVersion: string,
  capabilities: ClientCapabilities = {},
): Promise<Record<string, unknown>> {
  const result = await client.request<Record<string, unknown>>('initialize', {
    protocolVersion,
    capabilities,
    clientInfo: CLIENT_INFO,
  });
  await client.notify('notifications/initialized');
  return result;
}

/** Rejection of a request, as `{code, message, data}`. */
export async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: Loose }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; message: string; data?: unknown };
  }
  throw new Error('expected the request to fail');
}

/** Waits until `predicate` holds (bounded). */
export async function until(predicate: () => boolean, timeoutMs = 2_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Forgets violations in messages the test client sent on purpose (requests that break the schema to test the
 * server's answer); what the server sent is still checked by `assertClean()`.
 */
export function dropClientViolations(harness: Harness): void {
  const violations = harness.checked.violations;
  for (let index = violations.length - 1; index >= 0; index--) {
    if (violations[index]!.sender === 'client') violations.splice(index, 1);
  }
}
