import type {
  JsonRpcMessage,
  JsonRpcRequest,
  MessageInfo,
  Transport,
  TransportSendOptions,
} from '@mcpkit/jsonrpc-core';
import { REVISIONS, type Revision, type Sender, WireLedger, wireSchema } from './wire-schema';

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const LATEST_LEGACY: Revision = '2025-11-25';

/** One message that did not match the official schema of its revision. */
export interface WireViolation {
  /** Which side put the message on the wire. */
  sender: Sender;
  /** The revision it was checked against. */
  revision: Revision;
  /** The message as it crossed the wire. */
  message: JsonRpcMessage;
  /** What is wrong with it, one line each: the schema type, the path in the message, and the rule it breaks. */
  problems: string[];
}

/**
 * A violation as a few readable lines: who sent what (the method, or the request a response answers), against which
 * revision, what is wrong, and the message itself (shortened).
 *
 * @example
 * checked.onViolation = (violation) => console.error(formatViolation(violation));
 */
export function formatViolation(violation: WireViolation): string {
  const { message } = violation;
  const what =
    'method' in message
      ? `${'id' in message ? 'request' : 'notification'} ${message.method}`
      : `${'error' in message ? 'error response' : 'response'} to request ${JSON.stringify((message as { id: unknown }).id)}`;
  const json = JSON.stringify(message);
  return [
    `${violation.sender} sent an invalid ${what} (checked against MCP ${violation.revision}):`,
    ...violation.problems.map((problem) => `  - ${problem}`),
    `  message: ${json.length > 500 ? `${json.slice(0, 500)}…` : json}`,
  ].join('\n');
}

/** Thrown by `CheckedTransport.assertClean()`: every violation seen, formatted, with the list on `data`. */
export class WireViolationError extends Error {
  override name = 'WireViolationError';
  readonly code = 'ERR_WIRE_VIOLATION' as const;
  /** The violations, for a test that wants to look at them. */
  readonly data: { violations: WireViolation[] };

  constructor(violations: WireViolation[]) {
    super(
      `${violations.length} message(s) on the wire do not match the official MCP schema:\n${violations.map(formatViolation).join('\n')}`,
    );
    this.data = { violations: [...violations] };
  }
}

/** Options for `checkWire`. */
export interface CheckWireOptions {
  /** Which side the wrapped transport belongs to: its `send` carries this side's messages. */
  side: Sender;
  /**
   * The revision to check against. Default `'auto'`: a request carrying the 2026-07-28 `_meta` envelope uses its
   * version; otherwise the version `initialize` negotiated (its request's version until the result arrives). Pin a
   * revision when a test's connection is fixed to an era whatever a message says (a legacy stdio session that
   * receives an enveloped request handles it as legacy).
   */
  revision?: Revision | 'auto';
  /** Where violations go; default: collected on the returned transport's `violations`. */
  onViolation?: (violation: WireViolation) => void;
}

/** A transport whose every message, both ways, is checked against the official schema. */
export interface CheckedTransport extends Transport {
  /** The violations seen so far (unless `onViolation` takes them). */
  readonly violations: WireViolation[];
  /** Throws a `WireViolationError` listing every violation seen so far, if any. */
  assertClean(): void;
}

function isRevision(value: unknown): value is Revision {
  return typeof value === 'string' && (REVISIONS as readonly string[]).includes(value);
}

/**
 * Wraps a transport so that every message it sends and receives is validated against the official JSON Schema of the
 * revision in use; a test fails (via `assertClean()`) when either side puts an invalid message on the wire. The
 * schemas of every revision ship inside this package; nothing is fetched or read from disk.
 *
 * @example
 * const [clientSide, serverSide] = createLinkedTransports();
 * const checked = checkWire(serverSide, { side: 'server' });
 * await server.connect(checked);
 * // ... exercise the server ...
 * checked.assertClean();
 */
export function checkWire(transport: Transport, options: CheckWireOptions): CheckedTransport {
  const ledger = new WireLedger();
  const violations: WireViolation[] = [];
  const fixed = options.revision && options.revision !== 'auto' ? options.revision : undefined;
  let negotiated: Revision | undefined;
  const modernIds = new Set<string>();

  const revisionFor = (sender: Sender, message: JsonRpcMessage, requestMethod: string | undefined): Revision => {
    if (fixed) return fixed;
    if ('method' in message) {
      const params = message.params as Record<string, unknown> | undefined;
      const meta = params?._meta as Record<string, unknown> | undefined;
      const version = meta?.[PROTOCOL_VERSION_KEY];
      if (isRevision(version)) {
        if ('id' in message) modernIds.add(`${sender}:${message.id}`);
        return version;
      }
      if (message.method === 'initialize') {
        // Until the result names the version, check the request against what the client asked for, or (for a version
        // no schema knows) against the newest revision that has initialize at all.
        negotiated = isRevision(params?.protocolVersion) ? params.protocolVersion : LATEST_LEGACY;
      }
      return negotiated ?? '2026-07-28';
    }
    const id = (message as { id: unknown }).id;
    const asker: Sender = sender === 'client' ? 'server' : 'client';
    if (modernIds.delete(`${asker}:${String(id)}`)) return '2026-07-28';
    if (requestMethod === 'initialize' && 'result' in message) {
      const version = (message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      if (isRevision(version)) negotiated = version;
    }
    return negotiated ?? '2026-07-28';
  };

  const inspect = (sender: Sender, message: JsonRpcMessage) => {
    const requestMethod = ledger.observe(sender, message);
    const revision = revisionFor(sender, message, requestMethod);
    const problems = wireSchema(revision).check(message, requestMethod);
    if (problems.length === 0) return;
    const violation = { sender, revision, message, problems };
    if (options.onViolation) options.onViolation(violation);
    else violations.push(violation);
  };

  const other: Sender = options.side === 'client' ? 'server' : 'client';
  const checked: CheckedTransport = {
    violations,
    get sessionId() {
      return transport.sessionId;
    },
    start: () => {
      transport.onmessage = (message: JsonRpcMessage, info?: MessageInfo) => {
        inspect(other, message);
        checked.onmessage?.(message, info);
      };
      transport.onclose = (reason?: Error) => checked.onclose?.(reason);
      transport.onerror = (error: Error) => checked.onerror?.(error);
      return transport.start();
    },
    send: (message: JsonRpcMessage, sendOptions?: TransportSendOptions) => {
      inspect(options.side, message);
      return transport.send(message, sendOptions);
    },
    close: () => transport.close(),
    ...(transport.cancelsBySignal === undefined
      ? {}
      : { cancelsBySignal: (request: JsonRpcRequest) => transport.cancelsBySignal!(request) }),
    assertClean() {
      if (violations.length > 0) throw new WireViolationError(violations);
    },
  };
  return checked;
}
