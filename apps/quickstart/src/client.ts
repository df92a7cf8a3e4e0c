// The client half of the quickstart: start `server.ts` as a child process and connect an MCP client to it over stdio.
// `demo.ts` uses it to walk through everything the server offers; copy it to talk to your own server.
import { fileURLToPath } from 'node:url';
import { Client, type ConnectOptions, type InputHandlers } from '@mcpkit/client';
import { StdioClientTransport } from '@mcpkit/transport-stdio';

const SERVER_FILE = fileURLToPath(new URL('./server.ts', import.meta.url));

/** One JSON-RPC message as the client wrote it to the server's stdin. */
export type SentMessage = Parameters<StdioClientTransport['send']>[0];

/**
 * A stdio transport that also keeps every message it sends, so the demo can show what went over the wire. Your own
 * client does not need this: use `StdioClientTransport` as it is.
 */
export class RecordingStdioTransport extends StdioClientTransport {
  readonly sent: SentMessage[] = [];

  override send(message: SentMessage) {
    this.sent.push(message);
    return super.send(message);
  }
}

/** What `connectToTrattoria` needs: how to connect (era or version), and who answers the server's questions. */
export interface TrattoriaClientOptions {
  connect: ConnectOptions;
  /** Plays the user when the server asks something (elicitation). A real app shows a form here. */
  elicitation: NonNullable<InputHandlers['elicitation']>;
}

/**
 * Starts `server.ts` and connects to it. The server runs the way this script runs: `process.execArgv` carries tsx's
 * loader (and any `--conditions`), so the child can execute TypeScript too. For a built server you would write
 * `{ command: 'node', args: ['dist/server.js'] }`, or the command of any MCP server (`npx -y some-mcp-server`).
 */
export async function connectToTrattoria(
  options: TrattoriaClientOptions,
): Promise<{ client: Client; transport: RecordingStdioTransport }> {
  const client = new Client(
    { name: 'quickstart-client', version: '1.0.0' },
    // Giving a handler declares the capability: the client tells the server it can answer elicitations (forms).
    { handlers: { elicitation: options.elicitation }, requestTimeoutMs: 10_000 },
  );
  const transport = new RecordingStdioTransport({
    command: process.execPath,
    args: [...process.execArgv, SERVER_FILE],
    // The child gets only a safe subset of our environment (PATH, HOME, …) unless told otherwise: secrets in our
    // environment stay ours. Add what the server needs with `env: { API_KEY: … }`.
    //
    // Shutdown closes the server's stdin, then waits this long before SIGTERM; ours exits as soon as stdin ends.
    closeStdinGraceMs: 1_000,
  });
  await client.connect(transport, options.connect);
  return { client, transport };
}
