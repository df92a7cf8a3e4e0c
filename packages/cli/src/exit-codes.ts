import { McpClientError } from '@mcpkit/client';
import { findAuthorizationError } from '@mcpkit/client/auth';
import { ConnectionClosedError, JsonRpcError, RequestTimeoutError } from '@mcpkit/jsonrpc-core';
import { CapabilityError } from '@mcpkit/protocol';
import { TaskClientError } from '@mcpkit/tasks';
import { StreamableHttpError } from '@mcpkit/transport-http';
import { ServerProcessExitedError } from '@mcpkit/transport-stdio';
import { WebSocketTransportError } from '@mcpkit/transport-websocket';

/**
 * What `mcpkit` exits with. Scripts branch on these; the README's table is the contract.
 *
 * @example
 * // mcpkit tools call forecast --arg city=Paris --json -- node server.mjs; echo $?
 * // 0: the tool answered; 6: it answered with isError; 5: the server refused the call
 */
export const ExitCode = {
  /** The command did what was asked. */
  ok: 0,
  /** Anything not listed below: a bug of ours, or an error we could not classify. */
  failure: 1,
  /** Bad command line: an unknown command or option, a missing or malformed argument. */
  usage: 2,
  /** The server could not be reached or stopped answering: not started, refused, not an MCP server, died. */
  connection: 3,
  /** The server refused us: HTTP 401/403, OAuth failed. */
  authorization: 4,
  /** The server answered with a JSON-RPC error, or with something the protocol does not allow. */
  protocol: 5,
  /** The tool ran and reported a failure (`isError: true`). */
  toolError: 6,
} as const;

/** The name of an exit code (`usage`, `connection`, …): what a `CliError` says went wrong. */
export type ExitCodeName = keyof typeof ExitCode;

/** An error the CLI reports itself: its message is printed as it is, and the process exits with `exitCode`. */
export class CliError extends Error {
  override name = 'CliError';
  readonly kind: ExitCodeName;
  readonly exitCode: number;
  readonly data: Record<string, unknown> | undefined;

  constructor(kind: ExitCodeName, message: string, options?: { cause?: unknown; data?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.exitCode = ExitCode[kind];
    this.data = options?.data;
  }
}

/** Sorts any error into one of the exit codes, with a message a person can act on. */
export function classifyError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  const authorization = findAuthorizationError(error);
  if (authorization) {
    const hint =
      authorization.code === 'ERR_REGISTRATION_FAILED' || authorization.code === 'ERR_DISCOVERY_FAILED'
        ? ' (the server publishes no usable OAuth metadata: if it takes a static token, pass --header "Authorization: Bearer …" --no-oauth)'
        : '';
    return new CliError('authorization', `Authorization failed: ${authorization.message}${hint}`, {
      cause: error,
      data: { code: authorization.code },
    });
  }
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth++) {
    if (StreamableHttpError.is(cause)) {
      const status = cause.data.status;
      if (status === 401 || status === 403) {
        const hint = cause.data.challenge
          ? `(${cause.data.challenge})`
          : '(no WWW-Authenticate challenge: pass a token with --header "Authorization: Bearer …")';
        return new CliError('authorization', `The server refused the request with HTTP ${status} ${hint}`, {
          cause: error,
          data: { ...cause.data },
        });
      }
      return new CliError('connection', `HTTP transport: ${cause.message}${deepestCause(cause)}`, {
        cause: error,
        data: { ...cause.data },
      });
    }
    if (cause instanceof ServerProcessExitedError) {
      return new CliError('connection', cause.message, {
        cause: error,
        data: { exitCode: cause.exitCode, signal: cause.signal },
      });
    }
    if (WebSocketTransportError.is(cause)) {
      return new CliError('connection', `WebSocket transport: ${cause.message}`, { cause: error });
    }
  }
  if (error instanceof ConnectionClosedError) {
    return new CliError('connection', `The connection to the server closed: ${error.message}`, { cause: error });
  }
  if (error instanceof RequestTimeoutError) {
    return new CliError('connection', `The server did not answer in time: ${error.message}`, { cause: error });
  }
  if (error instanceof JsonRpcError) {
    return new CliError('protocol', `The server answered with error ${error.code}: ${error.message}`, {
      cause: error,
      data: { code: error.code, data: error.data },
    });
  }
  if (TaskClientError.is(error)) {
    // A failed task is the tool's failure; the rest (not a task, not in this revision) is the protocol's.
    return new CliError(error.code === 'ERR_TASK_FAILED' ? 'toolError' : 'protocol', error.message, {
      cause: error,
      data: { code: error.code },
    });
  }
  if (error instanceof CapabilityError || McpClientError.is(error)) {
    return new CliError('protocol', error.message, { cause: error });
  }
  if (error instanceof Error && isNetworkError(error)) {
    return new CliError('connection', `Could not reach the server: ${describeNetworkError(error)}`, { cause: error });
  }
  return new CliError('failure', error instanceof Error ? error.message : String(error), { cause: error });
}

/** `fetch failed` says little: the socket's own error (a refused TLS handshake, a reset) says why. */
function deepestCause(error: Error): string {
  let deepest: unknown = error;
  for (let depth = 0; deepest instanceof Error && deepest.cause instanceof Error && depth < 8; depth++)
    deepest = deepest.cause;
  if (deepest === error || !(deepest instanceof Error)) return '';
  const code = (deepest as { code?: unknown }).code;
  return ` (${typeof code === 'string' ? `${code}: ` : ''}${deepest.message.trim()})`;
}

function isNetworkError(error: Error): boolean {
  const code = (error.cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code;
  return typeof code === 'string' && /^(E[A-Z]+|UND_ERR_.*|ERR_TLS.*|.*CERT.*)$/.test(code);
}

function describeNetworkError(error: Error): string {
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause?.message ? `${error.message} (${cause.code ?? ''} ${cause.message})`.trim() : error.message;
}
