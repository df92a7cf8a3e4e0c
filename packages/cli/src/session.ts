import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { input } from '@inquirer/prompts';
import { Client, type ConnectOptions, type InputHandlers } from '@mcpkit/client';
import type { CreateMessageResult, ElicitResult, LoggingMessageNotificationParams } from '@mcpkit/protocol';
import { TasksClient } from '@mcpkit/tasks';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import { loopbackOAuth } from './auth/loopback-login';
import { CliError, classifyError } from './exit-codes';
import { type CliIo, note } from './io';
import { openInBrowser } from './open-url';
import { ProgressDisplay } from './progress-bar';
import { promptForProperties } from './schema-prompts';
import { describeTarget, openTransport, type Target } from './target';

/** The options every command that talks to a server shares (`mcpkit <command> --help` lists them). */
export interface SessionOptions {
  url?: string;
  protocolVersion?: string;
  header?: string[];
  root?: string[];
  json?: boolean;
  timeout?: string;
  /** Pass our whole environment to a stdio server. */
  inheritEnv?: boolean;
  /** `false` with `--no-oauth`: never sign in on a 401. */
  oauth?: boolean;
  /** The loopback redirect's port. */
  callbackPort?: string;
}

/** The `fetch` of an HTTP target: OAuth (loopback sign-in, tokens in the config folder) unless `--no-oauth`. */
export function targetFetch(io: CliIo, target: Target, options: SessionOptions): typeof fetch | undefined {
  if (target.kind !== 'http' || options.oauth === false) return undefined;
  return loopbackOAuth(io, { callbackPort: options.callbackPort ? Number(options.callbackPort) : undefined }).fetch;
}

/** A connected client and what the command needs around it. */
export interface Session {
  client: Client;
  tasks: TasksClient;
  target: Target;
  progress: ProgressDisplay;
  close(): Promise<void>;
}

/** Hooks a command may set before connecting (e.g. `logs` collects messages instead of printing them). */
export interface SessionHooks {
  onLogMessage?: (params: LoggingMessageNotificationParams) => void;
  /** Builds the `fetch` the HTTP transport uses (OAuth), given the target. */
  fetchFor?: (target: Target) => Promise<typeof fetch | undefined> | typeof fetch | undefined;
}

const CLIENT_INFO = { name: 'mcpkit-cli', version: '0.0.0' };

/** Connects to the target with the handlers a person at a terminal can answer; errors are classified for exit. */
export async function openSession(
  io: CliIo,
  target: Target,
  options: SessionOptions,
  hooks: SessionHooks = {},
): Promise<Session> {
  const quiet = options.json === true;
  const progress = new ProgressDisplay(io, quiet);
  const client = new Client(CLIENT_INFO, {
    handlers: inputHandlers(io, options, progress),
    capabilities: {
      elicitation: { form: {}, url: {} },
      sampling: {},
      ...(options.root?.length ? { roots: { listChanged: true } } : {}),
    },
    requestTimeoutMs: parseTimeout(options.timeout),
    onLogMessage: hooks.onLogMessage ?? ((params) => printLog(io, params)),
    onWarning: (message) => note(io, `warning: ${message}`),
    // A stdio server that prints to stdout corrupts the protocol stream: say so as it happens, it explains the
    // timeout that usually follows.
    onError: (error) => note(io, `mcpkit: ${describeStreamError(error)}`),
  });
  const tasks = new TasksClient(client);
  const fetch = hooks.fetchFor ? await hooks.fetchFor(target) : targetFetch(io, target, options);
  const transport = openTransport(target, {
    headers: parseHeaders(options.header),
    fetch,
    stderr: 'pipe',
    inheritEnv: options.inheritEnv,
  });
  // A stdio server's log is forwarded as it is written (and its tail kept for the error if it dies); --json keeps
  // stderr for our own diagnostics.
  if (!quiet && transport instanceof StdioClientTransport)
    transport.stderr?.on('data', (chunk) => io.stderr.write(chunk));
  const timeoutMs = parseTimeout(options.timeout);
  const connectOptions: ConnectOptions = {
    protocolVersion: options.protocolVersion,
    // A stdio server that does not know server/discover answers it with an error at once; silence means it is still
    // starting (tsx compiling, npx installing), so the probe waits as long as any request rather than 5 s.
    probeTimeoutMs: target.kind === 'stdio' ? (timeoutMs ?? 60_000) : Math.min(timeoutMs ?? 5000, 5000),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
  try {
    await client.connect(transport, connectOptions);
  } catch (error) {
    await client.close().catch(() => {});
    const classified = classifyError(error);
    // Whatever else stops the handshake (an error answer, a result that is not one) means there is no MCP server
    // to talk to there: a connection failure, not a protocol error of a call.
    const notMcp = classified.kind === 'failure' || classified.kind === 'protocol';
    throw new CliError(
      notMcp ? 'connection' : classified.kind,
      `Could not connect to ${describeTarget(target)}: ${notMcp ? 'is it an MCP server? ' : ''}${classified.message}`,
      { cause: error, data: classified.data },
    );
  }
  return {
    client,
    tasks,
    target,
    progress,
    close: async () => {
      progress.stop();
      await client.close();
    },
  };
}

/** Says what a transport error means for a person: garbage on a stdio server's stdout is named as such. */
export function describeStreamError(error: Error): string {
  if (/invalid message/i.test(error.message)) {
    return `the server wrote something that is not a JSON-RPC message on stdout (a stdio server must log to stderr): ${error.message}`;
  }
  return error.message;
}

function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

export function parseHeaders(values: readonly string[] | undefined): Record<string, string> | undefined {
  if (!values?.length) return undefined;
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(':');
    if (colon <= 0) continue;
    headers[value.slice(0, colon).trim().toLowerCase()] = value.slice(colon + 1).trim();
  }
  return headers;
}

/** A server's log message, as it arrives, on stderr. */
export function printLog(io: CliIo, params: LoggingMessageNotificationParams): void {
  const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
  note(io, `[${params.level}]${params.logger ? ` ${params.logger}:` : ''} ${data}`);
}

function inputHandlers(io: CliIo, options: SessionOptions, progress: ProgressDisplay): InputHandlers {
  const roots = (options.root ?? []).map((path) => {
    const absolute = resolve(path);
    return { uri: pathToFileURL(absolute).href, name: absolute.split(/[\\/]/).pop() || absolute };
  });
  return {
    elicitation: async (params, context): Promise<ElicitResult> => {
      progress.stop();
      if (params.mode === 'url') {
        note(io, `The server asks you to open: ${params.url}\n  ${params.message}`);
        const opened = await (io.openUrl ?? ((url) => openInBrowser(url, io.env)))(params.url);
        if (!opened) note(io, '(no browser could be opened: open the URL yourself)');
        if (!io.interactive) return { action: 'accept' };
        await input(
          { message: 'Press Enter when you are done' },
          { input: io.stdin, output: io.stderr, signal: context.signal },
        );
        return { action: 'accept' };
      }
      if (!io.interactive) {
        note(io, `The server asked: ${params.message} — declined (no terminal to ask in).`);
        return { action: 'decline' };
      }
      note(io, `The server asks: ${params.message}`);
      const content = await promptForProperties(io, params.requestedSchema, {}, { all: true, signal: context.signal });
      return { action: 'accept', content: content as ElicitResult['content'] };
    },
    sampling: async (params, context): Promise<CreateMessageResult> => {
      progress.stop();
      if (!io.interactive)
        throw new Error('The server asked for a sampling completion, and there is no terminal to answer it.');
      note(io, 'The server asks for a completion (you answer as the model):');
      if (params.systemPrompt) note(io, `  system: ${params.systemPrompt}`);
      for (const message of params.messages) {
        const contents = Array.isArray(message.content) ? message.content : [message.content];
        for (const content of contents) {
          note(io, `  ${message.role}: ${content.type === 'text' ? content.text : `[${content.type}]`}`);
        }
      }
      const text = await input(
        { message: 'Your answer', required: true },
        { input: io.stdin, output: io.stderr, signal: context.signal },
      );
      return { role: 'assistant', content: { type: 'text', text }, model: 'human', stopReason: 'endTurn' };
    },
    ...(roots.length ? { roots: () => ({ roots }) } : {}),
  };
}
