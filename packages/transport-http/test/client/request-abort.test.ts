import { AbortLink } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { nodeExchange } from '../../src/client/node-exchange';
import { nodeHttpModules } from '../../src/client/runtime-exchange';
import { startServer } from './http-server';

// The client transports abort each HTTP request with jsonrpc-core's AbortLink (no AbortController per request).
describe('the per-request abort switch of the client transports', () => {
  it('aborts a request on the node path: before the answer, and while its body is read', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/mcp?hang') return; // never answers
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
    });
    try {
      const modules = nodeHttpModules();
      if (modules === undefined) throw new Error('the node path is not available in this process');
      const send = nodeExchange(modules);
      const pending = new AbortLink();
      const request = send(new URL('?hang', server.url), { method: 'POST', headers: {}, body: '{}', signal: pending });
      setTimeout(() => pending.abort(), 20);
      await expect(request).rejects.toMatchObject({ name: 'AbortError' });

      const reading = new AbortLink();
      const answer = await send(server.url, { method: 'GET', headers: {}, signal: reading });
      const pieces: string[] = [];
      const streamed = answer.stream((piece) => {
        pieces.push(piece);
        reading.abort();
      });
      await expect(streamed).rejects.toBeInstanceOf(Error); // the destroyed response's error, as with a signal
      expect(pieces).toEqual(['data: 1\n\n']);
    } finally {
      await server.close();
    }
  });
});
