import { request as httpRequest } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { createParser } from 'eventsource-parser';

// A TCP proxy on 127.0.0.1 that cuts a connection after a chosen number of response bytes, and a raw SSE client that
// reads through it. Together they drop a real socket at an arbitrary byte of an SSE response (inside a header, an
// event, a chunk length), which is what a flaky network does to a client, with nothing mocked on the server side.

/** Where the proxy cuts the next connection's response. */
export interface CutPlan {
  /** Bytes of the response forwarded before the cut; `undefined` forwards everything. */
  readonly bytes: number | undefined;
  /**
   * Count `bytes` from the end of the response's first SSE event (the priming event) instead of from its first
   * byte, so the client always holds an event id to resume from.
   */
  readonly afterFirstEvent: boolean;
}

export interface CutProxy {
  readonly port: number;
  /** The plan the next accepted connection uses. */
  next: CutPlan;
  /** Connections cut so far. */
  readonly cuts: number;
  close(): Promise<void>;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const EVENT_END = Buffer.from('\n\n');

/** Offset just past the first SSE event of a response, once `seen` holds it. */
function firstEventEnd(seen: Buffer): number | undefined {
  const head = seen.indexOf(HEAD_END);
  if (head === -1) return undefined;
  const end = seen.indexOf(EVENT_END, head + HEAD_END.length);
  return end === -1 ? undefined : end + EVENT_END.length;
}

/** Starts a proxy to `127.0.0.1:targetPort`. */
export async function startCutProxy(targetPort: number): Promise<CutProxy> {
  const sockets = new Set<Socket>();
  let cuts = 0;
  const proxy: { next: CutPlan } = { next: { bytes: undefined, afterFirstEvent: false } };
  const server: Server = createServer((client) => {
    const plan = proxy.next;
    const upstream = tcpConnect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const cut = () => {
      cuts++;
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.end();
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    // The cut offset in response bytes, once known (at once, or when the first event has passed).
    let limit = plan.bytes === undefined ? Number.POSITIVE_INFINITY : plan.afterFirstEvent ? undefined : plan.bytes;
    let seen: Buffer | undefined = plan.afterFirstEvent ? Buffer.alloc(0) : undefined;
    let sent = 0;
    let done = false;
    upstream.on('data', (chunk: Buffer) => {
      if (done) return;
      if (limit === undefined) {
        seen = Buffer.concat([seen!, chunk]);
        const end = firstEventEnd(seen);
        if (end !== undefined) {
          limit = end + plan.bytes!;
          seen = undefined;
        }
      }
      const room = (limit ?? Number.POSITIVE_INFINITY) - sent;
      if (chunk.length < room) {
        sent += chunk.length;
        client.write(chunk);
        return;
      }
      if (room > 0) client.write(chunk.subarray(0, room));
      sent += Math.max(room, 0);
      done = true;
      // Let the partial write reach the socket before the reset, as a connection dying mid-packet would.
      setImmediate(cut);
      upstream.pause();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get next() {
      return proxy.next;
    },
    set next(plan: CutPlan) {
      proxy.next = plan;
    },
    get cuts() {
      return cuts;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface ReceivedEvent {
  readonly id: string | undefined;
  readonly data: string;
}

/** What one HTTP exchange through the proxy yielded before its connection ended (normally or cut). */
export interface Exchange {
  /** 0 when the connection died before the status line. */
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Complete SSE events, in order (an event cut in half is not here: it never ended with a blank line). */
  readonly events: ReceivedEvent[];
  /** Whether the body ended normally. */
  readonly complete: boolean;
}

export interface ExchangeOptions {
  readonly body?: string;
  /** Called with each complete event as it arrives. */
  readonly onEvent?: (event: ReceivedEvent) => void;
  /** Stop reading (and close the connection) once this says so: for streams that never end by themselves. */
  readonly until?: (events: readonly ReceivedEvent[]) => boolean;
  readonly timeoutMs?: number;
}

/**
 * One request on a new connection (no keep-alive), read until the connection ends or `until` is satisfied. Bounded
 * by `timeoutMs` (default 5 s).
 */
export function exchange(
  port: number,
  method: 'GET' | 'POST' | 'DELETE',
  headers: Record<string, string>,
  options: ExchangeOptions = {},
): Promise<Exchange> {
  return new Promise((resolve) => {
    const events: ReceivedEvent[] = [];
    let status = 0;
    let responseHeaders: Exchange['headers'] = {};
    let complete = false;
    let settled = false;
    const parser = createParser({
      onEvent: (event) => {
        if (settled) return;
        const received = { id: event.id, data: event.data };
        events.push(received);
        options.onEvent?.(received);
        if (options.until?.(events)) {
          complete = true;
          req.destroy();
          finish();
        }
      },
    });
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status, headers: responseHeaders, events, complete });
    };
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method,
        agent: false,
        headers: { host: `127.0.0.1:${port}`, ...headers },
      },
      (res) => {
        status = res.statusCode ?? 0;
        responseHeaders = res.headers;
        res.setEncoding('utf8');
        res.on('data', (text: string) => parser.feed(text));
        res.on('end', () => {
          complete = true;
          finish();
        });
        res.on('error', finish);
        res.on('close', finish);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish();
    }, options.timeoutMs ?? 5_000);
    req.on('error', finish);
    req.end(options.body);
  });
}
