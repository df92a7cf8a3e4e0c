import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError, FrameTooLargeError } from '../src/errors';
import { JsonRpcPeer } from '../src/peer';
import { NdjsonStreamTransport } from './readme/ndjson-stream-transport';
import { PairTransport } from './readme/pair-transport';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(`${packageRoot}README.md`, 'utf8');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('README', () => {
  it('starts with the runnable example', () => {
    const firstCode = readme.indexOf('```');
    expect(readme.lastIndexOf('<!-- snippet: test/readme/quickstart.ts -->', firstCode)).toBeGreaterThan(0);
  });

  it('shows every snippet file verbatim, so the documented code is type-checked and tested', () => {
    const markers = [...readme.matchAll(/<!-- snippet: (\S+) -->\n```ts[^\n]*\n([\s\S]*?)```\n/g)];
    expect(markers.map((match) => match[1])).toEqual([
      'test/readme/quickstart.ts',
      'test/readme/pair-transport.ts',
      'test/readme/ndjson-stream-transport.ts',
    ]);
    for (const [, path, code] of markers) {
      expect(code, path).toBe(readFileSync(`${packageRoot}${path}`, 'utf8'));
    }
  });

  it('runs the quickstart and prints what it says', async () => {
    const lines: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args);
    });
    await import('./readme/quickstart');
    expect(lines).toEqual([
      ['progress', { done: 1, total: 3 }],
      ['progress', { done: 2, total: 3 }],
      ['progress', { done: 3, total: 3 }],
      ['result', { counted: 3 }],
    ]);
  });
});

describe('README: PairTransport follows the Transport contract', () => {
  it('carries requests between two peers and closes both sides once', async () => {
    const [a, b] = PairTransport.pair();
    const server = new JsonRpcPeer();
    server.setRequestHandler('double', (params) => (params as [number])[0] * 2);
    const client = new JsonRpcPeer();
    const closes = { client: 0, server: 0 };
    client.onclose = () => closes.client++;
    server.onclose = () => closes.server++;
    await client.connect(a); // client first: its request waits in b's inbox until the server starts
    const answer = client.request('double', [21]);
    await server.connect(b);
    await expect(answer).resolves.toBe(42);
    await server.close();
    expect(closes).toEqual({ client: 1, server: 1 });
    await expect(a.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(/closed/);
    await expect(client.request('double', [1])).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(a.start()).rejects.toThrow(/closed transport/);
  });
});

describe('README: NdjsonStreamTransport', () => {
  function streams() {
    const toServer = new TransformStream<Uint8Array, Uint8Array>();
    const toClient = new TransformStream<Uint8Array, Uint8Array>();
    return {
      client: new NdjsonStreamTransport(toClient.readable, toServer.writable),
      server: new NdjsonStreamTransport(toServer.readable, toClient.writable),
    };
  }

  it('carries requests and notifications as NDJSON', async () => {
    const { client: clientTransport, server: serverTransport } = streams();
    const server = new JsonRpcPeer();
    const notes: unknown[] = [];
    server.setRequestHandler('greet', (params) => `hello ${(params as { name: string }).name}`);
    server.setNotificationHandler('note', (params) => {
      notes.push(params);
    });
    const client = new JsonRpcPeer();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => client.request('greet', { name: `n${index} ünïcødé\n` })),
    );
    expect(results[19]).toBe('hello n19 ünïcødé\n');
    await client.notify('note', { a: 1 });
    await vi.waitFor(() => expect(notes).toEqual([{ a: 1 }]), { timeout: 1000, interval: 5 });
    const closed = vi.fn();
    server.onclose = closed;
    await client.close();
    await vi.waitFor(() => expect(closed).toHaveBeenCalledTimes(1), { timeout: 1000, interval: 5 });
  });

  it('reports bad and oversized lines through onerror and keeps reading', async () => {
    const input = new TransformStream<Uint8Array, Uint8Array>();
    const output = new TransformStream<Uint8Array, Uint8Array>();
    const transport = new NdjsonStreamTransport(input.readable, output.writable);
    const errors: Error[] = [];
    const peer = new JsonRpcPeer({ onError: (error) => errors.push(error) });
    peer.setRequestHandler('ping', () => 'pong');
    await peer.connect(transport);
    const writer = input.writable.getWriter();
    const encoder = new TextEncoder();
    await writer.write(encoder.encode('not json\n'));
    await writer.write(encoder.encode(`{"pad":"${'x'.repeat(17 * 1024 * 1024)}"}\n`));
    await writer.write(encoder.encode('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
    const reader = output.readable.getReader();
    const decoder = new TextDecoder();
    const { value } = await reader.read();
    expect(JSON.parse(decoder.decode(value))).toEqual({ jsonrpc: '2.0', id: 1, result: 'pong' });
    expect(errors[0]?.message).toMatch(/^Parse error/);
    expect(errors[1]).toBeInstanceOf(FrameTooLargeError);
    await peer.close();
  });
});
