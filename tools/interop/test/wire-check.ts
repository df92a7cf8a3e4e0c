import { readFileSync } from 'node:fs';
import type { JsonRpcMessage, Transport } from '@mcpkit/jsonrpc-core';
import { checkWire, type Sender, type WireViolation } from '@mcpkit/testkit';

/** One line `fixtures/wire-tap.mjs` recorded: which tap process (= which connection), which way, and the line. */
export interface TappedLine {
  connection: string;
  sender: Sender;
  line: string;
}

/** A message that did not match the official schema of its revision, or a line that is not JSON at all. */
export interface TappedViolation {
  connection: string;
  sender: Sender;
  revision: string;
  /** The request method, or the method of the request a response answers, when known. */
  what: string;
  problems: string[];
  line: string;
}

/** What a tap log held, per connection, and every violation in it. */
export interface WireCheck {
  connections: Map<string, TappedLine[]>;
  messages: number;
  violations: TappedViolation[];
}

/**
 * Reads a `wire-tap.mjs --out` log: `<tap pid> > <line>` (client → server) and `<tap pid> < <line>` (server → client),
 * grouped by tap pid. Each pid is one connection (v2's `auto` mode spawns the server twice: probe and session).
 */
export function readTapLog(file: string): Map<string, TappedLine[]> {
  const connections = new Map<string, TappedLine[]>();
  for (const entry of readFileSync(file, 'utf8').split('\n')) {
    const match = /^(\d+) ([<>]) (.*)$/s.exec(entry);
    if (!match) continue; // also the tap's `<pid> . exit` line
    const [, connection, direction, line] = match as unknown as [string, string, string, string];
    let lines = connections.get(connection);
    if (!lines) {
      lines = [];
      connections.set(connection, lines);
    }
    lines.push({ connection, sender: direction === '>' ? 'client' : 'server', line });
  }
  return connections;
}

/**
 * Checks every line of a tap log against the official schema of the revision in use on its connection, with
 * `@mcpkit/testkit`'s `checkWire` (the same revision tracking as our in-process tests: a 2026-07-28 `_meta` envelope
 * names its revision, otherwise the one `initialize` negotiated). The log is replayed through a transport that only
 * records, in wire order: server lines as the checked side's sends, client lines as its receipts.
 */
export async function checkTapLog(file: string, waitMs = 2000): Promise<WireCheck> {
  await lastConnectionEnded(file, waitMs);
  const connections = readTapLog(file);
  const violations: TappedViolation[] = [];
  let messages = 0;
  for (const [connection, lines] of connections) {
    const replay: Transport = {
      start: async () => {},
      send: () => {},
      close: async () => {},
    };
    const found: WireViolation[] = [];
    const checked = checkWire(replay, { side: 'server', onViolation: (violation) => found.push(violation) });
    await checked.start();
    const methods = new Map<string, string>();
    for (const { sender, line } of lines) {
      let message: JsonRpcMessage;
      try {
        message = JSON.parse(line) as JsonRpcMessage;
      } catch (error) {
        violations.push({
          connection,
          sender,
          revision: '-',
          what: 'not JSON',
          problems: [(error as Error).message],
          line,
        });
        continue;
      }
      messages++;
      const before = found.length;
      if (sender === 'server') await checked.send(message);
      else replay.onmessage?.(message);
      const what = describe(sender, message, methods);
      for (const violation of found.slice(before)) {
        violations.push({ connection, sender, revision: violation.revision, what, problems: violation.problems, line });
      }
    }
  }
  return { connections, messages, violations };
}

/**
 * Waits (at most `waitMs`) until the tap of the last connection in the log wrote its exit line: a client may exit
 * before its server, and the tap records the client's last messages only as they arrive. Earlier connections are not
 * waited for: v2's probe sibling is killed with its tap, which then writes nothing more.
 */
async function lastConnectionEnded(file: string, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // Not created yet: nothing crossed the wire so far.
    }
    // Connections in order of their first line: the last one to appear is the session that ends last.
    const pids = new Set([...text.matchAll(/^(\d+) [<>.] /gm)].map((match) => match[1]));
    const last = [...pids].at(-1);
    if (last === undefined || new RegExp(`^${last} \\. exit `, 'm').test(text)) return;
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `tools/call` for a request, `response to tools/call` for its answer (by sender and id), `notifications/x`. */
function describe(sender: Sender, message: JsonRpcMessage, methods: Map<string, string>): string {
  const id = (message as { id?: unknown }).id;
  if ('method' in message) {
    if (id !== undefined) methods.set(`${sender}:${JSON.stringify(id)}`, message.method);
    return message.method;
  }
  const asker = sender === 'client' ? 'server' : 'client';
  const method = methods.get(`${asker}:${JSON.stringify(id)}`) ?? 'an unknown request';
  return `${'error' in message ? 'error' : 'result'} for ${method}`;
}

/** Human-readable lines for a failure message: who sent what, in which revision, and what is wrong with it. */
export function formatViolations(violations: readonly TappedViolation[]): string {
  return violations
    .map(
      (violation) =>
        `${violation.sender} sent an invalid ${violation.revision} message (${violation.what}) on connection ${violation.connection}:\n` +
        `  ${violation.problems.join('\n  ')}\n  ${violation.line.slice(0, 600)}`,
    )
    .join('\n');
}

/**
 * How many `notifications/progress` (total 3) the server put on the wire before the result of the `slow` call that
 * completed 3 steps, on the connection that carried it; `undefined` when no such result is on the wire. Proves the
 * server side of the progress step independently of a client that drops the last notification.
 */
export function progressBeforeSlowResult(connections: Map<string, TappedLine[]>): number | undefined {
  for (const lines of connections.values()) {
    let progress = 0;
    for (const { sender, line } of lines) {
      if (sender !== 'server') continue;
      if (line.includes('"notifications/progress"') && line.includes('"total":3')) progress++;
      else if (line.includes('completed 3 steps')) return progress;
    }
  }
  return undefined;
}

/** How each connection opened: the first message the client sent on it, and whether it carried the 2026 envelope. */
export function openings(connections: Map<string, TappedLine[]>): Array<{ method: string; enveloped: boolean }> {
  const result: Array<{ method: string; enveloped: boolean }> = [];
  for (const lines of connections.values()) {
    const first = lines.find((line) => line.sender === 'client');
    if (!first) continue;
    try {
      const message = JSON.parse(first.line) as { method?: string; params?: { _meta?: Record<string, unknown> } };
      const enveloped = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined;
      result.push({ method: message.method ?? '(response)', enveloped });
    } catch {
      result.push({ method: '(not JSON)', enveloped: false });
    }
  }
  return result;
}
