import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { StreamTransport } from './stream-transport';

/** Where the child's stderr goes. */
export type StderrMode = 'pipe' | 'inherit' | 'ignore';

/** Options for `StdioClientTransport`. */
export interface StdioClientTransportOptions {
  /** The server's executable. */
  command: string;
  /** Its arguments, passed as they are (no shell: nothing is interpreted). */
  args?: readonly string[];
  /**
   * Environment of the child. By default the child gets only a safe subset of ours (`DEFAULT_INHERITED_ENV`: PATH,
   * HOME, USER, … — never tokens or keys that happen to be set) plus these variables. Set `inheritEnv: true` to pass
   * everything.
   */
  env?: Record<string, string>;
  /** Pass our whole environment to the child (then `env` is laid over it). Default false. */
  inheritEnv?: boolean;
  /** The child's working directory. Default: ours. */
  cwd?: string;
  /**
   * `pipe` (default): read it through `stderr` and keep its tail for error messages; `inherit`: share ours;
   * `ignore`: discard it.
   */
  stderr?: StderrMode;
  /**
   * The longest message accepted from the server, in bytes. A longer response is dropped as it arrives and its
   * request fails at once with a -32603 error naming the limit (when the response's first bytes carry its id; else
   * the drop is reported through `onerror`). Default 16 MiB.
   */
  maxMessageBytes?: number;
  /** Shutdown, as the spec says: close stdin, wait this long, SIGTERM. Default 2000 ms. */
  closeStdinGraceMs?: number;
  /** Then wait this long after SIGTERM before SIGKILL. Default 2000 ms. */
  sigtermGraceMs?: number;
}

/** The variables a child inherits by default: what programs need to run, nothing that identifies or authorises. */
export const DEFAULT_INHERITED_ENV: readonly string[] =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'PROGRAMFILES',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'TMPDIR'];

const STDERR_TAIL_BYTES = 8 * 1024;

/** The server process ended while the transport was open: its exit code or signal, and the tail of its stderr. */
export class ServerProcessExitedError extends Error {
  override name = 'ServerProcessExitedError';
  readonly code = 'ERR_SERVER_PROCESS_EXITED' as const;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderrTail: string;

  constructor(command: string, exitCode: number | null, signal: NodeJS.Signals | null, stderrTail: string) {
    const how = signal ? `was killed by ${signal}` : `exited with code ${exitCode}`;
    const tail = stderrTail.trim() ? `; the end of its stderr:\n${stderrTail.trimEnd()}` : '';
    super(`The MCP server process (${command}) ${how}${tail}`);
    this.exitCode = exitCode;
    this.signal = signal;
    this.stderrTail = stderrTail;
  }
}

/**
 * The client side of MCP's stdio transport: spawns the server and talks to it over its stdin and stdout.
 *
 * - If the child exits, `onclose` receives a `ServerProcessExitedError` naming the exit code (or signal) and the tail
 *   of its stderr, and the engine rejects every pending request at once with it as the cause.
 * - `close()` shuts the child down as the spec says: close its stdin, wait, SIGTERM, wait, SIGKILL.
 *
 * @example
 * import { StdioClientTransport } from '@mcpkit/transport-stdio';
 * await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
 */
export class StdioClientTransport extends StreamTransport {
  readonly #options: StdioClientTransportOptions;
  readonly #child: ChildProcess;
  readonly #stderrTail: Uint8Array[] = [];
  #stderrTailBytes = 0;
  #exited: Promise<void>;
  #shuttingDown = false;
  // A spawn failure (ENOENT, EACCES) is emitted right after construction; kept until start() reports it.
  #spawnError: Error | undefined;
  #spawned = false;

  constructor(options: StdioClientTransportOptions) {
    const child = spawn(options.command, options.args ?? [], {
      cwd: options.cwd,
      env: childEnvironment(options),
      stdio: ['pipe', 'pipe', options.stderr ?? 'pipe'],
      shell: false,
      windowsHide: true,
    });
    super({ input: child.stdout!, output: child.stdin!, maxMessageBytes: options.maxMessageBytes });
    this.#options = options;
    this.#child = child;
    child.stderr?.on('data', (chunk: Uint8Array) => this.#keepStderr(chunk));
    // Listen from the start: an 'error' event with no listener would crash the process when start() comes later.
    child.on('error', (error) => {
      if (!this.#spawned) this.#spawnError = error;
      else this.onerror?.(error);
    });
    child.once('spawn', () => {
      this.#spawned = true;
    });
    // Writes to a child that died fail with EPIPE; the exit handler reports the real cause.
    child.stdin!.on('error', () => {});
    this.#exited = new Promise((resolve) => {
      child.once('exit', (exitCode, signal) => {
        resolve();
        const reason = this.#shuttingDown
          ? undefined
          : new ServerProcessExitedError(options.command, exitCode, signal, this.stderrTail);
        // stdout may still hold the child's last messages: deliver them first, but do not wait on a grandchild
        // that keeps the pipe open.
        const stdout = child.stdout!;
        if (stdout.readableEnded) return this.closeWith(reason);
        const timer = setTimeout(() => this.closeWith(reason), 100);
        stdout.once('end', () => {
          clearTimeout(timer);
          this.closeWith(reason);
        });
      });
    });
  }

  /** The child's stdout ending is not the end: the exit handler closes, with the reason. */
  protected override onInputEnd(): void {}

  /** The child's pid, once spawned. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** The child's stderr when `stderr: 'pipe'` (the default), to read its logs. */
  get stderr(): Readable | null {
    return this.#child.stderr;
  }

  /** The last 8 KiB the child wrote to stderr (with `stderr: 'pipe'`). */
  get stderrTail(): string {
    const bytes = new Uint8Array(this.#stderrTailBytes);
    let offset = 0;
    for (const chunk of this.#stderrTail) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return new TextDecoder().decode(bytes);
  }

  override async start(): Promise<void> {
    if (!this.#spawned && this.#spawnError === undefined) {
      await new Promise<void>((resolve) => {
        const settle = () => {
          this.#child.off('spawn', settle);
          this.#child.off('error', settle);
          resolve();
        };
        this.#child.once('spawn', settle);
        this.#child.once('error', settle);
      });
    }
    const failure = this.#spawnError;
    if (failure) {
      throw new Error(`Could not start the MCP server process (${this.#options.command}): ${failure.message}`, {
        cause: failure,
      });
    }
    await super.start();
  }

  /** A write to a child that just died fails with EPIPE; the exit handler closes with the real cause instead. */
  protected override onOutputBroken(): void {}

  override async close(): Promise<void> {
    this.#shuttingDown = true;
    const child = this.#child;
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      // What was sent in this turn is still held for the turn's one write: it goes before the end of stdin.
      this.flush();
      child.stdin?.end();
      if (!(await this.#exitWithin(this.#options.closeStdinGraceMs ?? 2000))) {
        child.kill('SIGTERM');
        if (!(await this.#exitWithin(this.#options.sigtermGraceMs ?? 2000))) {
          child.kill('SIGKILL');
          await this.#exited;
        }
      }
    }
    this.closeWith(undefined);
  }

  async #exitWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const exited = await Promise.race([this.#exited.then(() => true), timeout]);
    clearTimeout(timer);
    return exited;
  }

  #keepStderr(chunk: Uint8Array): void {
    this.#stderrTail.push(chunk);
    this.#stderrTailBytes += chunk.length;
    while (this.#stderrTailBytes - this.#stderrTail[0]!.length >= STDERR_TAIL_BYTES) {
      this.#stderrTailBytes -= this.#stderrTail.shift()!.length;
    }
  }
}

function childEnvironment(options: StdioClientTransportOptions): Record<string, string> {
  const environment: Record<string, string> = {};
  if (options.inheritEnv) {
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) environment[key] = value;
  } else {
    for (const key of DEFAULT_INHERITED_ENV) {
      const value = process.env[key];
      // Functions exported by bash ("() { …") are a known injection vector: never pass them on.
      if (value !== undefined && !value.startsWith('()')) environment[key] = value;
    }
  }
  return { ...environment, ...options.env };
}
