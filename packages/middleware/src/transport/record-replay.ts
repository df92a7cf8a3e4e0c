import {
  defineCodedError,
  type JsonRpcMessage,
  type MessageInfo,
  type Transport,
  type TransportSendOptions,
  validateMessage,
} from '@mcpkit/jsonrpc-core';
import { WrappedTransport } from './wrapped-transport';

/** One line of a recording: a message this side sent (`out`) or received (`in`). */
export interface RecordedLine {
  dir: 'in' | 'out';
  message: JsonRpcMessage;
}

/** Options of {@link recordTransport}. */
export interface RecordTransportOptions {
  /** Also hands each NDJSON line (without its newline) here as it is recorded: a file, a log. */
  write?: (line: string) => void;
  /** Keep the lines in memory for {@link RecordingTransport.ndjson}. Default `true`. */
  keep?: boolean;
}

/** A transport that records the conversation it carries. */
export interface RecordingTransport extends Transport {
  /** The conversation so far, one JSON line per message (`{"dir":"out","message":{…}}`), newline-terminated. */
  ndjson(): string;
  /** The conversation so far, as objects. */
  readonly lines: readonly RecordedLine[];
}

class RecordTransport extends WrappedTransport implements RecordingTransport {
  readonly lines: RecordedLine[] = [];
  readonly #write: ((line: string) => void) | undefined;
  readonly #keep: boolean;

  constructor(inner: Transport, options: RecordTransportOptions) {
    super(inner);
    this.#write = options.write;
    this.#keep = options.keep ?? true;
  }

  ndjson(): string {
    return this.lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  }

  #record(dir: 'in' | 'out', message: JsonRpcMessage): void {
    const line: RecordedLine = { dir, message };
    if (this.#keep) this.lines.push(line);
    if (this.#write !== undefined) {
      try {
        this.#write(JSON.stringify(line));
      } catch (error) {
        this.report(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  protected override sendThrough(message: JsonRpcMessage, options: TransportSendOptions | undefined) {
    this.#record('out', message);
    return this.inner.send(message, options);
  }

  protected override receive(message: JsonRpcMessage, info: MessageInfo | undefined): void {
    this.#record('in', message);
    this.deliver(message, info);
  }
}

/**
 * Records every message a transport carries, both ways, as NDJSON (one `{"dir","message"}` object per line), to
 * replay later with {@link replayTransport}: record a session with a real server once, then test a client against
 * the recording without the server.
 *
 * @example
 * const recording = recordTransport(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
 * await client.connect(recording);
 * await client.listTools();
 * await client.close();
 * writeFileSync('fixtures/list-tools.ndjson', recording.ndjson());
 */
export function recordTransport(transport: Transport, options: RecordTransportOptions = {}): RecordingTransport {
  return new RecordTransport(transport, options);
}

/** What went wrong replaying a recording. */
export type ReplayErrorCode =
  /** A line of the recording is not a `{dir, message}` object with a JSON-RPC message. */
  | 'ERR_REPLAY_INVALID'
  /** This side sent something other than what the recording has next. */
  | 'ERR_REPLAY_MISMATCH'
  /** This side sent a message after the recording ended. */
  | 'ERR_REPLAY_ENDED';

/** A replay that cannot go on: `data` has what was expected and what came. */
export class ReplayError extends defineCodedError<
  ReplayErrorCode,
  { line?: number; expected?: JsonRpcMessage; actual?: JsonRpcMessage }
>('ReplayError', '@mcpkit/middleware/ReplayError') {}

/** Options of {@link replayTransport}. */
export interface ReplayTransportOptions {
  /**
   * Whether what this side sends matches the recorded line. Default: the same kind of message with the same method;
   * responses to the same (mapped) request. Ids of requests are mapped, so a client numbering its requests
   * differently still replays.
   */
  match?: (expected: JsonRpcMessage, actual: JsonRpcMessage) => boolean;
}

type Id = string | number;

function kindOf(message: JsonRpcMessage): 'request' | 'notification' | 'response' {
  if ('method' in message) return 'id' in message ? 'request' : 'notification';
  return 'response';
}

function defaultMatch(expected: JsonRpcMessage, actual: JsonRpcMessage): boolean {
  const kind = kindOf(expected);
  if (kind !== kindOf(actual)) return false;
  if (kind === 'response') return (expected as { id: Id }).id === (actual as { id: Id }).id;
  return (expected as { method: string }).method === (actual as { method: string }).method;
}

function parseRecording(ndjson: string | readonly RecordedLine[]): RecordedLine[] {
  if (typeof ndjson !== 'string') return [...ndjson];
  const lines: RecordedLine[] = [];
  const texts = ndjson.split('\n');
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index]!.trim();
    if (text === '') continue;
    let line: { dir?: unknown; message?: unknown };
    try {
      line = JSON.parse(text) as typeof line;
    } catch {
      throw new ReplayError('ERR_REPLAY_INVALID', `Recording line ${index + 1} is not JSON`, { line: index + 1 });
    }
    const parsed = validateMessage(line?.message);
    if ((line?.dir !== 'in' && line?.dir !== 'out') || !parsed.ok) {
      throw new ReplayError(
        'ERR_REPLAY_INVALID',
        `Recording line ${index + 1} is not {"dir":"in"|"out","message":<JSON-RPC message>}`,
        { line: index + 1 },
      );
    }
    lines.push({ dir: line.dir, message: parsed.message });
  }
  return lines;
}

/**
 * A transport that plays the other side of a recorded conversation ({@link recordTransport}): it delivers what the
 * recording received and checks that what this side sends is what the recording sent, in order. A message that does
 * not match, or one sent after the recording ended, fails its send with a {@link ReplayError} (so the request fails
 * at once) and is reported through `onerror`. Request ids are mapped from the recording to the live ones.
 *
 * @example
 * const client = new Client({ name: 'test', version: '1.0.0' });
 * const replay = replayTransport(readFileSync('fixtures/list-tools.ndjson', 'utf8'));
 * await client.connect(replay, { era: 'legacy' });
 * expect((await client.listTools()).tools).toHaveLength(2);
 * expect(replay.finished).toBe(true);
 */
export function replayTransport(
  recording: string | readonly RecordedLine[],
  options: ReplayTransportOptions = {},
): ReplayingTransport {
  return new ReplayingTransport(parseRecording(recording), options);
}

/** The transport {@link replayTransport} returns. */
export class ReplayingTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;
  readonly #lines: RecordedLine[];
  readonly #match: (expected: JsonRpcMessage, actual: JsonRpcMessage) => boolean;
  /** Recorded ids of this side's requests → the ids it uses now. */
  readonly #ids = new Map<Id, Id>();
  #next = 0;
  #closed = false;

  /** @internal Use {@link replayTransport}. */
  constructor(lines: RecordedLine[], options: ReplayTransportOptions) {
    this.#lines = lines;
    this.#match = options.match ?? defaultMatch;
  }

  /** Whether every line of the recording was played. */
  get finished(): boolean {
    return this.#next >= this.#lines.length;
  }

  /** Lines not played yet. */
  get remaining(): number {
    return this.#lines.length - this.#next;
  }

  async start(): Promise<void> {
    this.#playInbound();
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('replayTransport: the transport is closed'));
    const index = this.#next;
    const expected = this.#lines[index];
    if (expected === undefined) {
      return this.#refuse(
        new ReplayError(
          'ERR_REPLAY_ENDED',
          `The recording ended; nothing more was expected, got ${describe(message)}`,
          {
            actual: message,
          },
        ),
      );
    }
    const recorded = expected.message;
    if (!this.#match(recorded, message)) {
      return this.#refuse(
        new ReplayError(
          'ERR_REPLAY_MISMATCH',
          `Recording line ${index + 1} expected ${describe(recorded)}, got ${describe(message)}`,
          { line: index + 1, expected: recorded, actual: message },
        ),
      );
    }
    if (kindOf(recorded) === 'request') this.#ids.set((recorded as { id: Id }).id, (message as { id: Id }).id);
    this.#next++;
    // Answers arrive after send() returned, as from a real peer.
    setTimeout(() => this.#playInbound(), 0);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  /** Delivers recorded inbound lines up to the next one this side must send. */
  #playInbound(): void {
    while (!this.#closed) {
      const line = this.#lines[this.#next];
      if (line === undefined || line.dir !== 'in') return;
      this.#next++;
      let message = line.message;
      if (kindOf(message) === 'response') {
        const live = this.#ids.get((message as { id: Id }).id);
        if (live !== undefined) message = { ...message, id: live } as JsonRpcMessage;
      }
      this.onmessage?.(message);
    }
  }

  #refuse(error: ReplayError): Promise<void> {
    this.onerror?.(error);
    return Promise.reject(error);
  }
}

function describe(message: JsonRpcMessage): string {
  const kind = kindOf(message);
  if (kind === 'response') return `the response to id ${String((message as { id: Id }).id)}`;
  return `${kind} '${(message as { method: string }).method}'`;
}
