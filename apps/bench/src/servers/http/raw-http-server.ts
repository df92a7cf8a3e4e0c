// The floor over HTTP: node:http and JSON-RPC by hand (answers in raw-answer.ts), no SDK, no validation. Stateful
// modes mint a random session id on `initialize` and check it on every later request (404 if unknown); SSE mode wraps
// each response in one `data:` event; stateless and 2026-07-28 answer JSON.
import { randomUUID } from 'node:crypto';
import { installCpuReport } from '../cpu-report';
import { type RawMessage, rawReply } from '../raw-answer';
import { announce, httpMode } from './http-args';
import { listenNode } from './listen-node';

installCpuReport();
const mode = httpMode();
const stateful = mode === 'stateful-json' || mode === 'stateful-sse';
const sessions = new Set<string>();

announce(
  await listenNode((req, res) => {
    if (req.method === 'GET') {
      // No standalone stream: SDK clients treat 405 as "this server has none".
      res.writeHead(405, { allow: 'POST, DELETE' }).end();
      return;
    }
    if (req.method === 'DELETE') {
      sessions.delete(String(req.headers['mcp-session-id']));
      res.writeHead(200).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RawMessage;
      const headers: Record<string, string> = {};
      if (stateful) {
        if (message.method === 'initialize') {
          const id = randomUUID();
          sessions.add(id);
          headers['mcp-session-id'] = id;
        } else if (!sessions.has(String(req.headers['mcp-session-id']))) {
          res.writeHead(404).end();
          return;
        }
      }
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const reply = rawReply(message);
      if (mode === 'stateful-sse') {
        res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
        res.end(`event: message\ndata: ${reply}\n\n`);
      } else {
        res.writeHead(200, { ...headers, 'content-type': 'application/json' });
        res.end(reply);
      }
    });
  }),
);
