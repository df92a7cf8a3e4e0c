// The floor of the gateway hop bench: the least an MCP-aware proxy can do per message, written by hand on node
// built-ins only (no MCP library), so `bench:gateway` can tell the cost of a hop on this machine from the cost of
// our gateway's code. Its front is `node:http` at `/mcp`, like the direct server's; per POST it reads the message
// (`JSON.parse`, looks at `method` and `params.name` as a router must), then
// - `--upstream <url>`: re-serializes it and POSTs it upstream through a keep-alive `Agent` with the downstream's MCP
//   headers (content-type, accept, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`; never
//   `Authorization`: no token passthrough), and parses and re-serializes a JSON answer (an SSE answer's bytes pass
//   through as they are);
// - `--upstream-command <file>`: runs that file with this node as its child and speaks newline-delimited JSON-RPC to
//   it: every request gets an id of the proxy's own (all callers share one pipe), the answer's id is mapped back.
// A JSON line `{"url": …}` on stdout once it listens, as the bench servers do. Bodies are bounded, bad input gets a
// JSON-RPC error, and an upstream that fails answers 502: a floor that cut those corners would not be one.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { announce } from '../servers/http/http-args';
import { upstreamArguments } from './upstream-args';

/** The direct server's `maxBodyBytes` (servers/http/mcpkit-http-server.ts). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** An answer line from the stdio upstream longer than this ends the proxy (the stdio transport's default bound). */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

interface Message {
  jsonrpc?: string;
  id?: number | string | null;
  method?: unknown;
  params?: { name?: unknown } | null;
}

/** Where a parsed request goes: answers `res` itself, whatever happens upstream. */
type Forward = (message: Message, req: IncomingMessage, res: ServerResponse) => void;

const target = upstreamArguments('floor-proxy');
const forward: Forward = target.url !== undefined ? httpForward(new URL(target.url)) : stdioForward(target.command);

const server = createServer((req, res) => {
  if (!(req.url ?? '/').startsWith('/mcp')) {
    res.writeHead(404).end();
    return;
  }
  if (req.method !== 'POST') {
    // 2026-07-28 has no standalone stream and no session to delete.
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  readBody(req, res, (body) => {
    let message: Message;
    try {
      message = JSON.parse(body) as Message;
    } catch {
      answerError(res, 400, null, -32700, 'Parse error: the body is not JSON');
      return;
    }
    // The router's look at the message: one upstream here, but a gateway picks it by method and name.
    if (
      message === null ||
      typeof message !== 'object' ||
      typeof message.method !== 'string' ||
      (message.method === 'tools/call' && typeof message.params?.name !== 'string')
    ) {
      answerError(res, 400, message?.id ?? null, -32600, 'Invalid request: one JSON-RPC request or notification');
      return;
    }
    forward(message, req, res);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  announce(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});
// A normal exit on SIGTERM, so that `node --cpu-prof` (BENCH_CPU_PROF) writes its profile.
process.once('SIGTERM', () => process.exit(0));

/** Collects a request body up to {@link MAX_BODY_BYTES}; answers 413 past it. */
function readBody(req: IncomingMessage, res: ServerResponse, onBody: (body: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      req.destroy();
      answerError(res, 413, null, -32600, `The body is over ${MAX_BODY_BYTES} bytes`);
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (size <= MAX_BODY_BYTES)
      onBody((chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString());
  });
}

function answerError(res: ServerResponse, status: number, id: Message['id'], code: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: { code, message } }));
}

/** The downstream headers an upstream must see: the body's type, what the client accepts, and the MCP headers. */
function upstreamHeaders(from: IncomingHttpHeaders, body: string): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    accept: from.accept ?? 'application/json, text/event-stream',
  };
  for (const name in from) {
    // `mcp-protocol-version`, `mcp-method`, `mcp-name`, `mcp-param-*` (Node lower-cases header names).
    if (name.startsWith('mcp-') && name !== 'mcp-session-id') headers[name] = from[name];
  }
  return headers;
}

/** Forwards over HTTP: one upstream POST per downstream POST, on keep-alive connections. */
function httpForward(url: URL): Forward {
  const agent = new Agent({ keepAlive: true });
  return (message, req, res) => {
    const body = JSON.stringify(message);
    const upstream = request(
      {
        agent,
        method: 'POST',
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        headers: upstreamHeaders(req.headers, body),
      },
      (answer) => {
        const status = answer.statusCode ?? 502;
        const type = answer.headers['content-type'] ?? '';
        if (!type.startsWith('application/json')) {
          // An SSE stream (or an empty 202): its bytes as they come, the stream's events are the upstream's.
          res.writeHead(status, type === '' ? {} : { 'content-type': type });
          answer.pipe(res);
          return;
        }
        readBody(answer, res, (text) => {
          let reply: unknown;
          try {
            reply = JSON.parse(text);
          } catch {
            answerError(res, 502, message.id, -32603, 'The upstream answered with invalid JSON');
            return;
          }
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply));
        });
      },
    );
    upstream.on('error', (error) => answerError(res, 502, message.id, -32603, `Upstream: ${error.message}`));
    upstream.end(body);
  };
}

/** Forwards over the pipes of a child process: one line per message, ids of the proxy's own. */
function stdioForward(file: string): Forward {
  const child: ChildProcess = spawn(process.execPath, [file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<number, { id: Message['id']; res: ServerResponse }>();
  let nextId = 0;
  child.once('exit', (code, signal) => {
    process.stderr.write(`floor-proxy: the upstream exited (${signal ?? code})\n`);
    // Every waiting caller gets its error before the proxy ends.
    const answered = [...waiting.values()].map(
      ({ id, res }) =>
        new Promise((resolve) => {
          res.once('close', resolve);
          answerError(res, 502, id, -32603, 'The upstream process exited');
        }),
    );
    waiting.clear();
    void Promise.all(answered).then(() => process.exit(1));
  });
  // The answers: lines, joined across chunks only where one spans them.
  let partial = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    let start = 0;
    let newline = chunk.indexOf('\n');
    while (newline !== -1) {
      const line = partial + chunk.slice(start, newline);
      partial = '';
      if (line.length > 0) answered(line);
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    partial += chunk.slice(start);
    // An upstream that never ends its line: stopped (the exit handler answers what waits) rather than buffered.
    if (partial.length > MAX_LINE_CHARS) child.kill();
  });
  function answered(line: string): void {
    let reply: Message;
    try {
      reply = JSON.parse(line) as Message;
    } catch {
      process.stderr.write(`floor-proxy: the upstream wrote a line that is not JSON: ${line.slice(0, 200)}\n`);
      return;
    }
    // Not an answer to one of ours (a notification, or a request of the upstream's own): nothing waits for it.
    if (typeof reply?.id !== 'number' || reply.method !== undefined) return;
    const caller = waiting.get(reply.id);
    if (caller === undefined) return;
    waiting.delete(reply.id);
    reply.id = caller.id;
    caller.res.writeHead(200, { 'content-type': 'application/json' });
    caller.res.end(JSON.stringify(reply));
  }
  return (message, _req, res) => {
    if (message.id === undefined) {
      // A notification: written as it is, accepted with nothing to wait for.
      child.stdin?.write(`${JSON.stringify(message)}\n`);
      res.writeHead(202).end();
      return;
    }
    const id = nextId++;
    waiting.set(id, { id: message.id, res });
    // A downstream that goes away leaves no entry behind (its answer, when it comes, is dropped).
    res.once('close', () => waiting.delete(id));
    message.id = id;
    child.stdin?.write(`${JSON.stringify(message)}\n`);
  };
}
