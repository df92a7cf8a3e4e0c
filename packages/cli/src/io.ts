import type { Readable, Writable } from 'node:stream';

/**
 * The streams a command runs against. The process's own by default; tests pass their own, so a command runs in
 * process and its output is read back.
 */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** Whether a person is there to answer prompts (stdin and stderr are terminals, and not `--json`). */
  interactive: boolean;
  /** Whether stderr is a terminal (live progress bars). */
  stderrIsTerminal: boolean;
  /** Opens a URL in the user's browser; resolves false when it could not. */
  openUrl?: (url: string) => Promise<boolean>;
}

/** The process's streams. */
export function processIo(): CliIo {
  const terminal = process.stdin.isTTY === true && process.stderr.isTTY === true;
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    interactive: terminal,
    stderrIsTerminal: process.stderr.isTTY === true,
  };
}

/** Writes one line to stderr: diagnostics never go to stdout, which belongs to the result (`--json`). */
export function note(io: CliIo, line: string): void {
  io.stderr.write(`${line}\n`);
}
