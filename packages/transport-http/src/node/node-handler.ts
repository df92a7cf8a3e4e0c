import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@mcpkit/jsonrpc-core';

/** Anything with the web-standard `handle` of `createStreamableHttpHandler` (or `withCors` around it). */
export interface WebHandler {
  handle(request: Request, extra?: { auth?: AuthInfo }): Promise<Response>;
}

/** Options for {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /** Largest request body read (413 beyond, before the web handler sees it). Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * The authenticated identity of a request. Default: `req.auth` when your auth middleware set it (as the official
   * SDK's `requireBearerAuth` does).
   */
  auth?: (req: IncomingMessage) => AuthInfo | undefined | Promise<AuthInfo | undefined>;
}

/** A node request listener: `(req, res) => Promise<void>`. Errors are answered with 500, never thrown. */
export type NodeRequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

function fail(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        req.off('data', onData);
        req.resume(); // drain without keeping it
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total)));
    req.once('error', reject);
  });
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  return headers;
}

/** Writes a web `Response` to a node `ServerResponse`, streaming the body chunk by chunk (SSE is flushed as written). */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue;
    headers[name] = value;
  }
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) headers['set-cookie'] = cookies;
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
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const resume = () => {
            res.off('close', resume);
            res.off('drain', resume);
            resolve();
          };
          res.once('drain', resume);
          res.once('close', resume);
        });
      }
      if (res.destroyed) break;
    }
  } catch {
    // The body was cancelled because the client left.
  } finally {
    res.off('close', onClose);
    if (!res.destroyed) res.end();
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
  return async (req, res) => {
    try {
      const method = req.method ?? 'GET';
      const length = req.headers['content-length'];
      if (length !== undefined && Number(length) > maxBytes) {
        req.resume();
        fail(res, 413, `Payload Too Large: the body exceeds ${maxBytes} bytes`);
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
            fail(res, 413, `Payload Too Large: the body exceeds ${maxBytes} bytes`);
            return;
          }
          body = read;
        }
      }
      const controller = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) controller.abort(new Error('The client closed the connection'));
      });
      const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
      const url = `${secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
      const request = new Request(url, {
        method,
        headers: toHeaders(req),
        body: body as BodyInit | undefined,
        signal: controller.signal,
      });
      const auth = await authOf(req);
      const response = await handler.handle(request, auth === undefined ? undefined : { auth });
      await writeResponse(response, res);
    } catch (error) {
      fail(res, 500, `Internal Server Error: ${(error as Error)?.message ?? String(error)}`);
    }
  };
}
