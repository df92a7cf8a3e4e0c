import { createServer, request as httpRequest, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { standardHeadersFor } from '@mcpkit/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createStreamableHttpHandler, withCors } from '../../src/index';
import { toNodeHandler, type WebHandler } from '../../src/node/node-handler';
import { ACCEPT, LEGACY, type Loose, makeServer, modernRequest, request } from './harness';

// Regression: on Node 22 and 24 the node adapter ended SSE responses while they were still corked, and Node dropped
// the corked chunk: a legacy tools/call answered with the priming event only, a 2026-07-28 tool with progress never
// answered. Node 20 delivered everything, so this file only fails on the code it guards when the suite runs on 22+
// (`npm test` runs it on 20, 22 and 24). Each response is read to its end on a real socket and must hold every event.

const servers: NodeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(handler: WebHandler): Promise<number> {
  const listener = toNodeHandler(handler);
  const server = createServer((req, res) => void listener(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** One POST read to the end of its body; the SSE events' JSON-RPC messages. */
function post(
  port: number,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; sessionId?: string; messages: Loose[] }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', accept: ACCEPT, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const sse = String(res.headers['content-type']).startsWith('text/event-stream');
          const messages = sse
            ? text
                .split('\n')
                .filter((line) => line.startsWith('data: ') && line.length > 6)
                .map((line) => JSON.parse(line.slice(6)))
            : text === ''
              ? []
              : [JSON.parse(text)];
          resolve({ status: res.statusCode ?? 0, sessionId: res.headers['mcp-session-id'] as string, messages });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function serverWithResources() {
  const made = makeServer();
  made.server.registerResource('notes', 'note://one', { mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri: String(uri), text: 'the note' }],
  }));
  return made.server;
}

// The fast path (the handler's own answers written by the adapter) and the web path (a wrapper hides the fast path,
// so the adapter streams a web Response): both end SSE streams and must not lose their last chunk.
const paths: [string, () => WebHandler][] = [
  ['fast path', () => createStreamableHttpHandler(serverWithResources(), { keepAliveMs: 0 })],
  [
    'web Response path',
    () => withCors(createStreamableHttpHandler(serverWithResources(), { keepAliveMs: 0 }), { origin: '*' }),
  ],
];

describe.each(paths)('node adapter delivers every byte on Node %s', (_name, make) => {
  it('legacy session: tools/call, resources/list and resources/read answer over SSE in full', async () => {
    const port = await listen(make());
    const init = await post(
      port,
      {},
      request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 't', version: '1' } }, 1),
    );
    expect(init.status).toBe(200);
    const session = { 'mcp-session-id': init.sessionId!, 'mcp-protocol-version': LEGACY };
    await post(port, session, { jsonrpc: '2.0', method: 'notifications/initialized' });
    for (let round = 0; round < 20; round++) {
      const id = 100 + round * 4;
      const calls = [
        request('tools/call', { name: 'echo', arguments: { text: `r${round}` } }, id),
        request(
          'tools/call',
          { name: 'progress', arguments: { steps: 3 }, _meta: { progressToken: `p${id}` } },
          id + 1,
        ),
        request('resources/list', {}, id + 2),
        request('resources/read', { uri: 'note://one' }, id + 3),
      ];
      const answers = await Promise.all(calls.map((call) => post(port, session, call)));
      for (const [index, answer] of answers.entries()) {
        const response = answer.messages.find((message) => message.id === calls[index]!.id);
        expect(response, `round ${round}: ${calls[index]!.method} (id ${calls[index]!.id}) lost its response`).toEqual(
          expect.objectContaining({ result: expect.any(Object) }),
        );
      }
      const progress = answers[1]!.messages.filter((message) => message.method === 'notifications/progress');
      expect(progress).toHaveLength(3);
    }
  });

  it('2026-07-28: a tool that reports progress answers, with every notification before the result', async () => {
    const port = await listen(make());
    for (let round = 0; round < 20; round++) {
      const body: Loose = modernRequest('tools/call', { name: 'progress', arguments: { steps: 4 } }, 500 + round);
      body.params._meta.progressToken = `m${round}`;
      const answer = await post(port, standardHeadersFor(body), body);
      expect(answer.status).toBe(200);
      expect(answer.messages.map((message) => message.method ?? 'response')).toEqual([
        'notifications/progress',
        'notifications/progress',
        'notifications/progress',
        'notifications/progress',
        'response',
      ]);
      expect(answer.messages.at(-1).result.content[0].text).toBe('done 4');
    }
  });
});
