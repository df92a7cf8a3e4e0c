import type { Transport } from '@mcpkit/jsonrpc-core';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import { WebSocketClientTransport } from '@mcpkit/transport-websocket';
import { WebSocket } from 'ws';
import { CliError } from './exit-codes';

/** Where the server is: a command to start (stdio), or a URL (Streamable HTTP with SSE fallback, or WebSocket). */
export type Target =
  | { kind: 'stdio'; command: string; args: string[] }
  | { kind: 'http'; url: URL }
  | { kind: 'websocket'; url: URL };

/** How a target is reached: headers for HTTP/WebSocket, the `fetch` (OAuth-wrapped or not), stderr of a child. */
export interface TargetOptions {
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** stdio: where the child's stderr goes. Default: ours, so its log is seen as it is written. */
  stderr?: 'inherit' | 'pipe' | 'ignore';
  /** stdio: pass our whole environment to the child (default: the transport's safe subset). */
  inheritEnv?: boolean;
}

/** Reads the target from `--url` or the words after `--`; exactly one of them. */
export function parseTarget(url: string | undefined, command: readonly string[]): Target {
  if (url !== undefined && command.length > 0) {
    throw new CliError('usage', 'Give the server either as --url <url> or as a command after --, not both.');
  }
  if (command.length > 0) return { kind: 'stdio', command: command[0]!, args: command.slice(1) };
  if (url === undefined) {
    throw new CliError(
      'usage',
      'No server given: add --url <http(s)://… or ws(s)://…> or a command after -- (e.g. -- node server.mjs).',
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError('usage', `Not a URL: ${url}`);
  }
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return { kind: 'http', url: parsed };
  if (parsed.protocol === 'ws:' || parsed.protocol === 'wss:') return { kind: 'websocket', url: parsed };
  throw new CliError('usage', `Unsupported URL scheme ${parsed.protocol} (use http, https, ws or wss).`);
}

/** A fresh transport for the target. */
export function openTransport(target: Target, options: TargetOptions = {}): Transport {
  switch (target.kind) {
    case 'stdio':
      return new StdioClientTransport({
        command: target.command,
        args: target.args,
        stderr: options.stderr ?? 'inherit',
        inheritEnv: options.inheritEnv ?? false,
      });
    case 'http':
      return new StreamableHttpClientTransport(target.url, {
        headers: options.headers,
        fetch: options.fetch,
      });
    case 'websocket':
      return new WebSocketClientTransport(target.url.href, { WebSocket, headers: options.headers });
  }
}

/** The target as a person reads it, for messages. */
export function describeTarget(target: Target): string {
  return target.kind === 'stdio' ? [target.command, ...target.args].join(' ') : target.url.href;
}
