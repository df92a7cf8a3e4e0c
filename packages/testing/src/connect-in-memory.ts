import { Client, type ClientOptions } from '@mcpkit/client';
import { createLinkedTransports, type MessageInfo, type Transport } from '@mcpkit/jsonrpc-core';
import type { Implementation } from '@mcpkit/protocol';
import { type McpToolServer, type Server, type ServerSession, serverOf } from '@mcpkit/server';
import { WireTranscript } from './transcript';

/** Options for `connectInMemory`. */
export interface ConnectInMemoryOptions {
  /**
   * The protocol version the client uses, which decides the era: `'2026-07-28'` (stateless, `server/discover`) or
   * an `initialize` version (`'2025-11-25'` … `'2024-11-05'`). Default `'2026-07-28'`. Pinned, so the client sends
   * no probe and sets no probe timer.
   */
  protocolVersion?: string;
  /** The client's name and version. Default `{ name: 'mcpkit-testing', version: '0.0.0' }`. */
  clientInfo?: Implementation;
  /** Options of the `Client` (handlers for elicitation, sampling, roots; timeouts; middleware). */
  client?: ClientOptions;
  /** What the server sees as `ctx.info` on every message (e.g. `{ auth }` to test authorisation). */
  messageInfo?: MessageInfo;
  /**
   * Wraps the client's end of the channel before the client connects: the place for a `checkWire` from
   * `@mcpkit/testing/wire` or another recorder. The transcript records what crosses this wrapped end.
   */
  wrapClientTransport?: (transport: Transport) => Transport;
}

/**
 * A server and a client connected in memory. `await using` closes both when the block ends (or call `close()`).
 *
 * @example
 * await using connection = await connectInMemory(server, { protocolVersion: '2025-11-25' });
 * const result = await connection.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
 */
export interface InMemoryConnection extends AsyncDisposable {
  /** The connected client. */
  readonly client: Client;
  /** The server's session for this client. */
  readonly session: ServerSession;
  /** Every message both ways since the client started connecting (the handshake included). */
  readonly transcript: WireTranscript;
  /** Closes the client, then the server's session. Idempotent. */
  close(): Promise<void>;
}

/**
 * Connects `server` and a new `Client` in memory, in one call, in either era. Nothing here starts a timer: messages
 * travel as microtasks, so tests with fake timers (`vi.useFakeTimers()`, jest's modern timers, `node:test` mock
 * timers) keep working as long as `queueMicrotask` is left real (the default of all three); only the client's own
 * request timeouts use `setTimeout`, which fake timers then control.
 *
 * @example
 * import { McpServer } from '@mcpkit/server';
 * import { connectInMemory } from '@mcpkit/testing';
 *
 * const server = new McpServer({ name: 'echo', version: '1.0.0' });
 * server.registerTool('echo', { description: 'Echoes', inputSchema: { type: 'object' } }, (args) => ({
 *   content: [{ type: 'text', text: JSON.stringify(args) }],
 * }));
 * await using connection = await connectInMemory(server, { protocolVersion: '2026-07-28' });
 * console.log(connection.client.era); // 'modern'
 */
export async function connectInMemory(
  server: McpToolServer | Server,
  options: ConnectInMemoryOptions = {},
): Promise<InMemoryConnection> {
  const [clientEnd, serverEnd] = createLinkedTransports(
    options.messageInfo === undefined ? {} : { second: { messageInfo: options.messageInfo } },
  );
  const transcript = new WireTranscript();
  const wrapped = options.wrapClientTransport?.(clientEnd) ?? clientEnd;
  const session = await serverOf(server).connect(serverEnd);
  const client = new Client(options.clientInfo ?? { name: 'mcpkit-testing', version: '0.0.0' }, options.client);
  try {
    await client.connect(transcript.record(wrapped, 'client'), {
      protocolVersion: options.protocolVersion ?? '2026-07-28',
    });
  } catch (error) {
    await session.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await client.close();
      await session.close();
    })();
    return closing;
  };
  return { client, session, transcript, close, [Symbol.asyncDispose]: close };
}
