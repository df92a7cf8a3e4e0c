import { Console } from 'node:console';
import type { Readable, Writable } from 'node:stream';
import { StreamTransport } from './stream-transport';

/** Options for `StdioServerTransport`. */
export interface StdioServerTransportOptions {
  /** Default `process.stdin`. */
  stdin?: Readable;
  /** Default `process.stdout`. Nothing but MCP messages may be written to it. */
  stdout?: Writable;
  /** Where dropped oversized messages are logged, one line each. Default `process.stderr`; `null`: nowhere. */
  stderr?: Writable | null;
  /**
   * The longest message accepted, in bytes. A longer line is dropped and answered with a -32600 error naming the limit
   * (with the request's id when its first bytes carry it, else `id: null`), and logged on `stderr`. Default 16 MiB.
   */
  maxMessageBytes?: number;
}

/**
 * The server side of MCP's stdio transport: messages arrive on stdin and leave on stdout, one per line. stdout must
 * carry nothing else: call `redirectConsoleToStderr()` once at start-up to keep stray `console.log` calls off it.
 * stderr is free for logs. A line that is not valid JSON-RPC is answered with the JSON-RPC error (-32700 or -32600)
 * and reported through `onerror`; the server keeps running.
 *
 * @example
 * import { StdioServerTransport, redirectConsoleToStderr } from '@mcpkit/transport-stdio';
 * redirectConsoleToStderr();
 * await server.connect(new StdioServerTransport());
 */
export class StdioServerTransport extends StreamTransport {
  constructor(options: StdioServerTransportOptions = {}) {
    const stderr = options.stderr === undefined ? process.stderr : options.stderr;
    super({
      input: options.stdin ?? process.stdin,
      output: options.stdout ?? process.stdout,
      maxMessageBytes: options.maxMessageBytes,
      answerInvalidMessages: true,
      log: stderr === null ? undefined : (line) => stderr.write(line),
    });
  }
}

/**
 * Sends everything the global `console` would write to stdout (`log`, `info`, `debug`, `dir`, `table`, `group`,
 * `count`, `timeLog` …) to stderr instead, so that nothing but MCP messages reaches a stdio server's stdout. Returns a
 * function that restores the original methods.
 */
export function redirectConsoleToStderr(): () => void {
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  const target = console as unknown as Record<string, unknown>;
  const replacement = toStderr as unknown as Record<string, unknown>;
  const originals = new Map<string, unknown>();
  for (const key of Object.keys(target)) {
    if (typeof target[key] !== 'function' || typeof replacement[key] !== 'function') continue;
    originals.set(key, target[key]);
    target[key] = (replacement[key] as (...args: unknown[]) => unknown).bind(toStderr);
  }
  return () => {
    for (const [key, original] of originals) target[key] = original;
  };
}
