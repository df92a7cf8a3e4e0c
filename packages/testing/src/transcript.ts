import type { JsonRpcMessage, MessageInfo, Transport, TransportSendOptions } from '@mcpkit/jsonrpc-core';

/** One message in a transcript, in the order it crossed the wire. */
export interface TranscriptEntry {
  /** Who sent it. */
  from: 'client' | 'server';
  /** The message as it crossed the wire. */
  message: JsonRpcMessage;
}

/** Options for `WireTranscript.format`. */
export interface TranscriptFormatOptions {
  /**
   * Replaces values that change from run to run before they are printed (a timestamp, a random id), by key name:
   * `{ createdAt: '<time>' }`. Applied at any depth. Default none.
   */
  redact?: Record<string, unknown>;
  /** Leave out the `_meta` envelope of 2026-07-28 requests (the same on every request). Default `false`. */
  hideEnvelope?: boolean;
}

/**
 * The messages of one connection, both ways, as a record a snapshot test can compare: `format()` prints one line per
 * message (`client → server  tools/call #2 {...}`), with keys in a stable order.
 *
 * @example
 * const transcript = new WireTranscript();
 * await client.connect(transcript.record(clientSide, 'client'));
 * await client.listTools();
 * expect(transcript.format({ hideEnvelope: true })).toMatchSnapshot();
 */
export class WireTranscript {
  /** Every message seen so far. */
  readonly entries: TranscriptEntry[] = [];

  /**
   * Wraps one end of a connection so that what it sends and receives is recorded. `side` is the end `transport`
   * belongs to: what it sends is from that side. Record one end of a connection, not both, or each message counts twice.
   */
  record(transport: Transport, side: 'client' | 'server'): Transport {
    const other = side === 'client' ? 'server' : 'client';
    const entries = this.entries;
    const recorded: Transport = {
      get sessionId() {
        return transport.sessionId;
      },
      start: () => {
        transport.onmessage = (message: JsonRpcMessage, info?: MessageInfo) => {
          entries.push({ from: other, message });
          recorded.onmessage?.(message, info);
        };
        transport.onclose = (reason?: Error) => recorded.onclose?.(reason);
        transport.onerror = (error: Error) => recorded.onerror?.(error);
        return transport.start();
      },
      send: (message: JsonRpcMessage, options?: TransportSendOptions) => {
        entries.push({ from: side, message });
        return transport.send(message, options);
      },
      close: () => transport.close(),
    };
    if (transport.cancelsBySignal !== undefined) {
      recorded.cancelsBySignal = (request) => transport.cancelsBySignal!(request);
    }
    return recorded;
  }

  /** Forgets what was recorded (e.g. the handshake, before the part a test is about). */
  clear(): void {
    this.entries.length = 0;
  }

  /** The transcript as text, one message per line. */
  format(options: TranscriptFormatOptions = {}): string {
    return this.entries.map((entry) => formatEntry(entry, options)).join('\n');
  }
}

const ENVELOPE_KEY = 'io.modelcontextprotocol/';

function formatEntry({ from, message }: TranscriptEntry, options: TranscriptFormatOptions): string {
  const arrow = from === 'client' ? 'client → server' : 'server → client';
  const record = message as unknown as Record<string, unknown>;
  let head: string;
  let body: unknown;
  if (typeof record.method === 'string') {
    head = 'id' in record ? `${record.method} #${String(record.id)}` : record.method;
    body = record.params;
  } else if ('error' in record) {
    head = `error #${String(record.id)}`;
    body = record.error;
  } else {
    head = `result #${String(record.id)}`;
    body = record.result;
  }
  const shown = stable(body, options, true);
  return shown === undefined ? `${arrow}  ${head}` : `${arrow}  ${head} ${JSON.stringify(shown)}`;
}

/** A copy with keys sorted, redactions applied and (optionally) the envelope removed from top-level `_meta`. */
function stable(value: unknown, options: TranscriptFormatOptions, top: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => stable(item, options, false));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    let item = (value as Record<string, unknown>)[key];
    if (options.redact !== undefined && key in options.redact) item = options.redact[key];
    if (top && key === '_meta' && options.hideEnvelope === true && item !== null && typeof item === 'object') {
      const kept = Object.fromEntries(Object.entries(item).filter(([name]) => !name.startsWith(ENVELOPE_KEY)));
      if (Object.keys(kept).length === 0) continue;
      item = kept;
    }
    out[key] = stable(item, options, false);
  }
  return out;
}
