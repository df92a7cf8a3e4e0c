import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import { rawBodyOf } from '../server/raw-body';
import { answerOf, type Reply } from '../server/reply';
import { ON_ABORT } from '../server/request-abort';
import type { SseTarget } from '../server/sse';
import { NodeRequest } from './node-request';

/** Anything with the web-standard `handle` of `createStreamableHttpHandler` (or `withCors` around it). */
export interface WebHandler {
  handle(request: Request, extra?: { auth?: AuthInfo }): Promise<Response>;
}

/** Options for {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /** Largest request body read (413 beyond, before the web handler sees it). Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * The authenticated identity of a request, or a `Response` that refuses it (a 401/403 from bearer auth, such as
   * `@mcpkit/middleware`'s `authenticate`): that response is written as is and the MCP handler never runs. It gets
   * the node request and its web `Request` (headers and URL only: it runs before the body is read, so a refused
   * client never makes the server buffer its body). Default: `req.auth` when your auth middleware
   * set it (as the official SDK's `requireBearerAuth` does).
   */
  auth?: (
    req: IncomingMessage,
    request: Request,
  ) => AuthInfo | Response | undefined | Promise<AuthInfo | Response | undefined>;
}

/** A node request listener: `(req, res) => Promise<void>`. Errors are answered with 500, never thrown. */
export type NodeRequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How long a refused body is still read, and thrown away, so that a client still sending it reads the refusal. */
const REFUSED_BODY_DRAIN_MS = 5_000;

function errorBody(message: string, data?: Record<string, unknown>): string {
  const error = data === undefined ? { code: -32000, message } : { code: -32000, message, data };
  return JSON.stringify({ jsonrpc: '2.0', id: null, error });
}

function fail(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = errorBody(message);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Answers 413 and ends the connection only once the client stopped sending, or after `REFUSED_BODY_DRAIN_MS`. Closing a
 * socket while its data still arrives makes the kernel answer with a reset, and a reset destroys the answer a client
 * that reads after writing (most do) has not read yet. The rest of the body is read and dropped, never kept.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  const body = errorBody(`Payload Too Large: the body exceeds ${maxBytes} bytes`, { maxBytes });
  res.writeHead(413, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  if (req.readableEnded || req.destroyed) {
    res.end(body);
    return;
  }
  res.write(body);
  const finish = () => {
    clearTimeout(timer);
    req.off('end', finish);
    req.off('close', finish);
    if (!res.writableEnded) res.end();
  };
  const timer = setTimeout(finish, REFUSED_BODY_DRAIN_MS);
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        req.off('data', onData);
        resolve('too-large'); // the caller drains the rest without keeping it
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total)));
    req.once('error', reject);
  });
}

function flushBatch(target: NodeSseTarget): void {
  target.flush();
}

/**
 * An SSE body written straight to the socket. What one turn writes leaves in one write: the text is batched here and
 * written on the next tick, or handed to `end(text)` when the stream ends in the same turn (a one-answer stream). Not
 * `cork()`: on Node 22 and later, `end()` on a corked response drops the corked chunk.
 */
class NodeSseTarget implements SseTarget {
  readonly #res: ServerResponse;
  #batch: string | undefined = undefined;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  write(text: string): void {
    if (this.#res.destroyed) return;
    if (this.#batch === undefined) {
      this.#batch = text;
      process.nextTick(flushBatch, this);
    } else {
      this.#batch += text;
    }
  }

  /** Writes the turn's batch (called on the next tick). */
  flush(): void {
    const batch = this.#batch;
    if (batch === undefined) return;
    this.#batch = undefined;
    const res = this.#res;
    if (!res.destroyed && !res.writableEnded) res.write(batch);
  }

  end(): void {
    const batch = this.#batch;
    this.#batch = undefined;
    const res = this.#res;
    if (res.destroyed || res.writableEnded) return;
    if (batch === undefined) res.end();
    else res.end(batch);
  }

  /** The response's buffer and its socket's (Node counts both), plus this turn's batch in UTF-16 units. */
  get bufferedBytes(): number {
    return this.#res.writableLength + (this.#batch?.length ?? 0);
  }

  destroy(): void {
    this.#batch = undefined;
    this.#res.destroy();
  }
}

// The request of a response, for the one `close` listener every response shares (no closure per request).
const REQUEST = Symbol('request');
interface ResponseWithRequest extends ServerResponse {
  [REQUEST]?: NodeRequest;
}

function onResponseClose(this: ResponseWithRequest): void {
  if (this.writableFinished) return;
  this[REQUEST]?.abort(new Error('The client closed the connection'));
}

/** Writes a handler's {@link Reply}; returns the SSE writer now feeding the socket, if any. */
function writeReply(reply: Reply, res: ServerResponse): Reply['sse'] {
  const { status, headers, body, sse } = reply;
  if (sse !== undefined) {
    res.writeHead(status, headers);
    sse.attach(new NodeSseTarget(res));
    return sse;
  }
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return undefined;
  }
  // One write with a length: head and body leave together.
  const length = Buffer.byteLength(body);
  res.writeHead(
    status,
    headers === undefined ? { 'content-length': length } : { ...headers, 'content-length': length },
  );
  res.end(body);
  return undefined;
}

/** Writes a web `Response` to a node `ServerResponse`, streaming the body chunk by chunk (SSE is flushed as written). */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[] | number> = {};
  let cookies = false;
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') cookies = true;
    else headers[name] = value;
  }
  if (cookies) headers['set-cookie'] = response.headers.getSetCookie?.() ?? [];
  const raw = rawBodyOf(response);
  if (raw !== undefined) {
    // Built from a string (JSON answers): one write with a length, no trip through the body stream.
    headers['content-length'] = Buffer.byteLength(raw);
    res.writeHead(response.status, headers);
    res.end(raw);
    return;
  }
  res.writeHead(response.status, headers);
  const body = response.body;
  if (body === null) {
    res.end();
    return;
  }
  const reader = body.getReader();
  // The client went away: cancel the body so the handler learns (for 2026-07-28 that cancels the request).
  const onClose = () => {
    reader.cancel().catch(() => undefined);
  };
  res.once('close', onClose);
  // Chunks produced in the same turn (an SSE event and the end of a one-answer stream, a batch of events) leave in
  // one write: corked here, uncorked once the turn's microtasks ran.
  let corked = false;
  const uncork = () => {
    if (!corked) return;
    corked = false;
    res.uncork();
  };
  // A body that fails (an SSE stream closed because the client read nothing, see SseWriter) drops the connection: ending
  // it normally would tell the client the response is complete, and keep its unread buffer until the client reads.
  let failed = false;
  // One watch of the body per response (not one per wait), waking whoever waits for a drain at the time.
  let watching = false;
  let waiter: (() => void) | undefined;
  const wakeWaiter = () => waiter?.();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (!corked) {
        corked = true;
        res.cork();
        process.nextTick(uncork);
      }
      if (!res.write(value)) {
        // Waits for the socket to drain, or for the body to fail while it waits (a client that reads nothing makes
        // an SSE body overflow: then the connection must go, and no drain will ever come).
        if (!watching) {
          watching = true;
          reader.closed.then(wakeWaiter, wakeWaiter);
        }
        await new Promise<void>((resolve) => {
          const resume = () => {
            res.off('close', resume);
            res.off('drain', resume);
            waiter = undefined;
            resolve();
          };
          waiter = resume;
          res.once('drain', resume);
          res.once('close', resume);
        });
      }
      if (res.destroyed) break;
    }
  } catch {
    // The body failed, or was cancelled because the client left.
    failed = true;
  } finally {
    res.off('close', onClose);
    // Uncorked before ending: on Node 22 and later, `end()` on a corked response drops the corked chunk.
    if (corked) uncork();
    if (failed) res.destroy();
    else if (!res.destroyed) res.end();
  }
}

/**
 * Turns a web-standard handler into a `node:http` request listener: the request becomes a `Request` (body read with
 * a size limit, `signal` aborted when the client disconnects), and the `Response` streams back.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { createStreamableHttpHandler } from '@mcpkit/transport-http';
 * import { toNodeHandler } from '@mcpkit/transport-http/node';
 * const listener = toNodeHandler(createStreamableHttpHandler(server));
 * createServer((req, res) => (req.url?.startsWith('/mcp') ? listener(req, res) : res.writeHead(404).end())).listen(3000, '127.0.0.1');
 */
export function toNodeHandler(handler: WebHandler, options: NodeHandlerOptions = {}): NodeRequestHandler {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const authOf = options.auth ?? ((req: IncomingMessage) => (req as { auth?: AuthInfo }).auth);
  let lastTarget = '';
  let lastHref = '';
  return async (req, res) => {
    try {
      const method = req.method ?? 'GET';
      const length = req.headers['content-length'];
      if (length !== undefined && Number(length) > maxBytes) {
        refuseBody(req, res, maxBytes);
        return;
      }
      const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
      // Parsed as `new Request` would (a bad Host is a TypeError → 500) and normalised the same way; a client sends
      // the same host and path again and again, so the last one is remembered.
      const target = `${secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
      if (target !== lastTarget) {
        lastHref = new URL(target).href;
        lastTarget = target;
      }
      const request = new NodeRequest(method, lastHref, req.rawHeaders, undefined, req.socket?.remoteAddress);
      (res as ResponseWithRequest)[REQUEST] = request;
      res.on('close', onResponseClose);
      const authed = authOf(req, request);
      // Awaited only when it is a promise: a synchronous answer costs no extra turn.
      const auth = (typeof (authed as { then?: unknown } | undefined)?.then === 'function' ? await authed : authed) as
        | AuthInfo
        | Response
        | undefined;
      if (auth instanceof Response) {
        // Refused before a byte of the body was read: an unauthenticated client cannot make us buffer 4 MiB.
        req.resume();
        await writeResponse(auth, res);
        return;
      }
      let body: Buffer | string | undefined;
      const parsed = (req as { body?: unknown }).body;
      if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
        if (parsed !== undefined && req.readableEnded) {
          // A body parser (express.json()) got there first: hand the handler the same JSON again.
          body = typeof parsed === 'string' ? parsed : JSON.stringify(parsed);
        } else {
          const read = await readBody(req, maxBytes);
          if (read === 'too-large') {
            refuseBody(req, res, maxBytes);
            return;
          }
          body = read;
        }
      }
      request.fillBody(body);
      const extra = auth === undefined ? undefined : { auth };
      const fast = answerOf(handler.handle);
      const answer = fast === undefined ? await handler.handle(request, extra) : await fast(handler, request, extra);
      if (answer instanceof Response) await writeResponse(answer, res);
      else {
        const sse = writeReply(answer, res);
        // The client leaving ends the SSE body too (a 2026-07-28 stream then cancels its request).
        if (sse !== undefined) request[ON_ABORT](() => sse.cancel());
      }
    } catch (error) {
      fail(res, 500, `Internal Server Error: ${(error as Error)?.message ?? String(error)}`);
    }
  };
}
