import { createServer, type Server as NodeServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createStreamableHttpHandler } from '../../src/index';
import { toNodeHandler } from '../../src/node/node-handler';
import { makeServer } from './harness';

// Regression (issue 12): a client that sends `Connection: close` and a 50 MB body, and reads the answer only while
// (or after) it writes, must still read the 413. Closing the socket while the body is still arriving makes the kernel
// answer with a reset, and a reset throws away the 413 the client had not read yet.

const MiB = 1024 * 1024;
const servers: NodeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(): Promise<number> {
  const listener = toNodeHandler(createStreamableHttpHandler(makeServer().server));
  const server = createServer((req, res) => void listener(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * Sends a 50 MB body as fast as the socket takes it, then reads the answer (as simple clients do: nothing is read while
 * writing, so an early close of the server hits a client that is still sending).
 */
function sendHugeBody(port: number, declareLength: boolean): Promise<{ answer: string; sent: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const total = 50 * MiB;
    const chunk = Buffer.alloc(256 * 1024, 'a');
    let answer = '';
    let sent = 0;
    const head = [
      'POST /mcp HTTP/1.1',
      `host: 127.0.0.1:${port}`,
      'content-type: application/json',
      'accept: application/json, text/event-stream',
      'connection: close',
      declareLength ? `content-length: ${total}` : 'transfer-encoding: chunked',
    ];
    socket.pause();
    socket.on('data', (data: Buffer) => {
      answer += data.toString('latin1');
    });
    const done = () => resolve({ answer, sent });
    socket.on('close', done);
    socket.on('error', () => undefined);
    const timer = setTimeout(() => socket.destroy(), 20_000);
    socket.on('close', () => clearTimeout(timer));
    const pump = () => {
      while (sent < total && !socket.destroyed) {
        const piece = declareLength
          ? chunk
          : Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
        sent += chunk.length;
        if (!socket.write(piece)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (socket.destroyed) return;
      if (declareLength) socket.end();
      else socket.end('0\r\n\r\n');
      socket.resume();
    };
    socket.on('error', () => socket.resume());
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    pump();
  });
}

describe('a refused body over a Connection: close request', () => {
  for (const declareLength of [true, false]) {
    it(`still lets the client read the 413 (${declareLength ? 'Content-Length' : 'chunked'}, 50 MB)`, async () => {
      const port = await listen();
      const { answer } = await sendHugeBody(port, declareLength);
      expect(answer.slice(0, 200)).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('Payload Too Large');
    }, 30_000);
  }
});
