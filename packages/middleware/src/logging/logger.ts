/**
 * Where request records go: any logger with `info`, `warn` and `error` taking an object and an optional message —
 * pino, bunyan, `console`, or {@link consoleJsonLogger}.
 *
 * @example
 * import pino from 'pino';
 * server.use(logging({ logger: pino() }));
 */
export interface Logger {
  info(record: object, message?: string): void;
  warn(record: object, message?: string): void;
  error(record: object, message?: string): void;
}

/** Options of {@link consoleJsonLogger}. */
export interface ConsoleJsonLoggerOptions {
  /** Where each JSON line goes. Default `console.error` (stderr: stdout is the protocol on a stdio server). */
  write?: (line: string) => void;
  /** Adds `time` (ISO 8601) to every line. Default `true`. */
  time?: boolean;
}

/**
 * A logger writing one JSON object per line: `{"level":"info","time":"…","msg":"…",…record}`. To stderr by default,
 * which is safe on a stdio server.
 *
 * @example
 * server.use(logging({ logger: consoleJsonLogger({ write: (line) => process.stderr.write(`${line}\n`) }) }));
 */
export function consoleJsonLogger(options: ConsoleJsonLoggerOptions = {}): Logger {
  const write = options.write ?? ((line: string) => console.error(line));
  const time = options.time ?? true;
  const line = (level: string) => (record: object, message?: string) => {
    const head: Record<string, unknown> = { level };
    if (time) head.time = new Date().toISOString();
    if (message !== undefined) head.msg = message;
    let text: string;
    try {
      text = JSON.stringify({ ...head, ...record });
    } catch {
      text = JSON.stringify({ ...head, unserializable: true });
    }
    write(text);
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}
