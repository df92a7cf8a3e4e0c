import { mkdtemp, readFile } from 'node:fs/promises';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { ConnectionClosedError, type JsonRpcMessage, JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ServerProcessExitedError,
  StdioClientTransport,
  StdioServerTransport,
  StreamTransport,
  UnwrittenMessagesError,
} from '../src/index';

const fixture = join(import.meta.dirname, 'fixtures', 'echo-server.mjs');
const limitFixture = join(import.meta.dirname, 'fixtures', 'limit-server.ts');

function collect(stream: PassThrough): () => unknown[] {
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return () =>
    text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line));
}

describe('StdioServerTransport', () => {
  it('delivers messages split across chunks and multi-byte characters', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new StdioServerTransport({ stdin, stdout });
    const received: JsonRpcMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();

    const bytes = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"héllo 世界"}}\r\n');
    for (let i = 0; i < bytes.length; i += 5) stdin.write(bytes.subarray(i, i + 5));
    await new Promise((resolve) => setImmediate(resolve));

    expect(received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'echo', params: { text: 'héllo 世界' } }]);
  });

  it('answers invalid lines with the JSON-RPC error and keeps going', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const output = collect(stdout);
    const transport = new StdioServerTransport({ stdin, stdout });
    const errors: Error[] = [];
    const received: JsonRpcMessage[] = [];
    transport.onerror = (error) => errors.push(error);
    transport.onmessage = (message) => received.push(message);
    await transport.start();

    stdin.write('this is not json\n{"jsonrpc":"2.0","id":7,"method":42}\n{"jsonrpc":"2.0","method":"ok"}\n');
    await new Promise((resolve) => setImmediate(resolve));

    expect(output()).toEqual([
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700 }) },
      { jsonrpc: '2.0', id: 7, error: expect.objectContaining({ code: -32600 }) },
    ]);
    expect(errors).toHaveLength(2);
    expect(received).toEqual([{ jsonrpc: '2.0', method: 'ok' }]);
  });

  it('never answers a notification, even an invalid one (reports it and goes on)', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const output = collect(stdout);
    const transport = new StdioServerTransport({ stdin, stdout });
    const errors: Error[] = [];
    const received: JsonRpcMessage[] = [];
    transport.onerror = (error) => errors.push(error);
    transport.onmessage = (message) => received.push(message);
    await transport.start();

    stdin.write(
      '{"jsonrpc":"2.0","method":"x","params":"x"}\n{"jsonrpc":"1.0","method":"y"}\n{"jsonrpc":"2.0","id":3,"method":"z","params":5}\n',
    );
    await new Promise((resolve) => setImmediate(resolve));

    // Only the request (it has an id) is answered.
    expect(output()).toEqual([{ jsonrpc: '2.0', id: 3, error: expect.objectContaining({ code: -32600 }) }]);
    expect(errors).toHaveLength(3);
    expect(received).toEqual([]);
  });

  it('drops an oversized line without buffering it and resynchronises', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new StdioServerTransport({ stdin, stdout, maxMessageBytes: 64 });
    const errors: Error[] = [];
    const received: JsonRpcMessage[] = [];
    transport.onerror = (error) => errors.push(error);
    transport.onmessage = (message) => received.push(message);
    await transport.start();

    stdin.write(`{"jsonrpc":"2.0","method":"big","params":{"x":"${'a'.repeat(1000)}"}}\n`);
    stdin.write('{"jsonrpc":"2.0","method":"small"}\n');
    await new Promise((resolve) => setImmediate(resolve));

    expect(errors.map((error) => error.name)).toEqual(['FrameTooLargeError']);
    expect(received).toEqual([{ jsonrpc: '2.0', method: 'small' }]);
  });

  // Regression (issue 12, defect 4): an oversized line was dropped and reported through onerror only, so its
  // sender's request hung until its timeout and nothing was logged.
  it('answers an oversized request with an error naming the limit, with its id, and logs it on stderr', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const output = collect(stdout);
    let log = '';
    stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
    const transport = new StdioServerTransport({ stdin, stdout, stderr, maxMessageBytes: 64 });
    transport.onerror = () => {};
    await transport.start();

    stdin.write(`{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"x":"${'a'.repeat(1000)}"}}\n`);
    stdin.write(`{"jsonrpc":"2.0","method":"notifications/big","params":{"x":"${'a'.repeat(1000)}"}}\n`);
    // Its id comes after more than the 64 KiB that are read for it.
    stdin.write(`{"jsonrpc":"2.0","method":"tools/call","params":{"x":"${'a'.repeat(70_000)}"},"id":9}\n`);
    await new Promise((resolve) => setImmediate(resolve));

    const answers = output() as { id: unknown; error: { code: number; message: string; data: unknown } }[];
    expect(answers.map((answer) => [answer.id, answer.error.code])).toEqual([
      ['big-1', -32600],
      [null, -32600],
      [null, -32600],
    ]);
    expect(answers[0]!.error.message).toMatch(/limit of 64 bytes \(maxMessageBytes\)/);
    expect(answers[0]!.error.data).toEqual({ maxMessageBytes: 64, receivedBytes: expect.any(Number) });
    expect(log.trim().split('\n')).toHaveLength(3);
    expect(log).toMatch(/dropped a message of at least \d+ bytes, over the limit of 64 bytes.*answered id "big-1"/);
  });

  it('fails our own request at once when its response is oversized', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new StdioServerTransport({ stdin, stdout, stderr: null, maxMessageBytes: 64 });
    const peer = new JsonRpcPeer();
    await peer.connect(transport);
    const asked = peer.request('sampling/createMessage', {}, { timeoutMs: 10_000 });
    const sent = JSON.parse(((await new Promise((resolve) => stdout.once('data', resolve))) as Buffer).toString());
    const began = Date.now();
    stdin.write(`{"jsonrpc":"2.0","id":${JSON.stringify(sent.id)},"result":{"x":"${'a'.repeat(1000)}"}}\n`);
    await expect(asked).rejects.toThrow(/response to this request was dropped.*limit of 64 bytes/);
    expect(Date.now() - began).toBeLessThan(1_000);
    await peer.close();
  });

  it('writes one line per message, waits for drain under back-pressure, and closes when stdin ends', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough({ highWaterMark: 16 });
    const transport = new StdioServerTransport({ stdin, stdout });
    let closed = 0;
    transport.onclose = () => closed++;
    await transport.start();

    const pending = transport.send({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { data: 'x'.repeat(100) },
    });
    expect(pending).toBeInstanceOf(Promise);
    let drained = false;
    void pending?.then(() => {
      drained = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    const line = stdout.read() as Buffer;
    expect(JSON.parse(line.toString('utf8'))).toMatchObject({ method: 'notifications/message' });
    expect(line.toString('utf8').endsWith('\n')).toBe(true);
    await pending;
    expect(drained).toBe(true);

    stdin.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'late' })).rejects.toThrow(/closed/);
  });
});

describe('StreamTransport writes', () => {
  it('joins the messages of one turn eight to a write, in order, and writes the rest at the end of the turn', async () => {
    const writes: string[] = [];
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk.toString('utf8'));
        done();
      },
    });
    const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout });
    await transport.start();
    const idsOf = (write: string) =>
      write
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).id);
    for (let id = 1; id <= 7; id++) transport.send({ jsonrpc: '2.0', id, result: {} });
    expect(writes).toEqual([]);
    transport.send({ jsonrpc: '2.0', id: 8, result: {} });
    // Eight are held: they leave now, so the reader can start on them while this turn makes more.
    expect(writes.map(idsOf)).toEqual([[1, 2, 3, 4, 5, 6, 7, 8]]);
    for (let id = 9; id <= 19; id++) transport.send({ jsonrpc: '2.0', id, result: {} });
    expect(writes).toHaveLength(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map(idsOf)).toEqual([
      [1, 2, 3, 4, 5, 6, 7, 8],
      [9, 10, 11, 12, 13, 14, 15, 16],
      [17, 18, 19],
    ]);
    transport.send({ jsonrpc: '2.0', id: 20, result: {} });
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(4);
    expect(writes[3]).toBe('{"jsonrpc":"2.0","id":20,"result":{}}\n');
    await transport.close();
  });
});

describe('StreamTransport writes a large message', () => {
  it('on its own, after the smaller messages of its turn, in order', async () => {
    const writes: string[] = [];
    const stdout = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk.toString('utf8'));
        done();
      },
    });
    const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout });
    await transport.start();
    transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    transport.send({ jsonrpc: '2.0', id: 2, result: { text: 'x'.repeat(2000) } });
    transport.send({ jsonrpc: '2.0', id: 3, result: {} });
    await new Promise((resolve) => setImmediate(resolve));
    const ids = writes.map((write) =>
      write
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    );
    expect(ids).toEqual([[1], [2], [3]]);
    await transport.close();
  });
});

describe('StreamTransport writes, then the stream ends', () => {
  it('writes what was sent in the turn it is closed in before it closes', async () => {
    const stdout = new PassThrough();
    const received = collect(stdout);
    const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout });
    await transport.start();
    transport.send({ jsonrpc: '2.0', id: 1, result: { last: true } });
    await transport.close();
    stdout.end();
    await new Promise((resolve) => stdout.once('end', resolve).resume());
    expect(received()).toEqual([{ jsonrpc: '2.0', id: 1, result: { last: true } }]);
  });

  it('reports the messages of the turn in which someone else ended its output (never silently)', async () => {
    const stdout = new PassThrough();
    const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    transport.send({ jsonrpc: '2.0', id: 2, result: {} });
    stdout.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(UnwrittenMessagesError);
    expect(errors[0]).toMatchObject({ code: 'ERR_UNWRITTEN_MESSAGES', data: { messages: 2 } });
    expect(errors[0]?.message).toMatch(/2 message\(s\).*close the transport/);
  });

  it('writes at once when the turn reaches the high-water mark, and waits for drain when the stream is full', async () => {
    const writes: string[] = [];
    let finishWrite: (() => void) | undefined;
    const stdout = new Writable({
      highWaterMark: 256,
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk.toString('utf8'));
        finishWrite = done;
      },
    });
    const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout });
    await transport.start();
    const text = 'x'.repeat(100);
    expect(transport.send({ jsonrpc: '2.0', method: 'a', params: { text } })).toBeUndefined();
    expect(writes).toEqual([]);
    const full = transport.send({ jsonrpc: '2.0', method: 'b', params: { text } });
    expect(writes).toHaveLength(1);
    expect(full).toBeInstanceOf(Promise);
    const later = transport.send({ jsonrpc: '2.0', method: 'c' });
    expect(later).toBeInstanceOf(Promise);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    finishWrite?.();
    await full;
    await later;
    await new Promise((resolve) => setImmediate(resolve));
    finishWrite?.();
    const methods = writes
      .join('')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).method);
    expect(methods).toEqual(['a', 'b', 'c']);
    await transport.close();
  });
});

describe('StreamTransport endOutputOnClose', () => {
  it('ends a socket after the last message, so the peer at the other end sees the close', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise((resolve) => socket.once('connect', resolve));
    const peer = await accepted;
    let text = '';
    peer.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    const peerEnded = new Promise((resolve) => peer.once('end', resolve));
    const transport = new StreamTransport({ input: socket, output: socket, endOutputOnClose: true });
    await transport.start();
    transport.send({ jsonrpc: '2.0', method: 'notifications/last' });
    await transport.close();
    await peerEnded;
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', method: 'notifications/last' });
    socket.destroy();
    peer.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('leaves the output open by default (the streams belong to the caller)', async () => {
    const output = new PassThrough();
    const transport = new StreamTransport({ input: new PassThrough(), output });
    await transport.start();
    await transport.close();
    expect(output.writableEnded).toBe(false);
    const owned = new PassThrough();
    const owning = new StreamTransport({ input: new PassThrough(), output: owned, endOutputOnClose: true });
    await owning.start();
    await owning.close();
    expect(owned.writableEnded).toBe(true);
  });
});

describe('redirectConsoleToStderr', () => {
  it('keeps every console method off stdout', async () => {
    const { execFile } = await import('node:child_process');
    const script = join(import.meta.dirname, 'fixtures', 'console-user.mjs');
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(process.execPath, ['--conditions=@mcpkit/source', '--import', 'tsx', script], (error, out, err) =>
        error ? reject(error) : resolve({ stdout: out, stderr: err }),
      );
    });
    expect(stdout).toBe('');
    for (const text of ['log', 'info', 'debug', 'dir: true', 'dirxml', 'group', 'count: 1', 't:']) {
      expect(stderr).toContain(text);
    }
  });
});

describe('StdioClientTransport', () => {
  const transports: StdioClientTransport[] = [];
  afterEach(async () => {
    await Promise.all(transports.splice(0).map((transport) => transport.close()));
  });

  function start(options: Partial<ConstructorParameters<typeof StdioClientTransport>[0]> = {}) {
    const transport = new StdioClientTransport({ command: process.execPath, args: [fixture], ...options });
    transports.push(transport);
    const received: JsonRpcMessage[] = [];
    const next = () =>
      new Promise<JsonRpcMessage>((resolve) => {
        transport.onmessage = (message) => resolve(message);
      });
    return { transport, received, next };
  }

  it('a real server answers a 50 MB request at once with an error naming its limit', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=@mcpkit/source', '--import', 'tsx', limitFixture],
      env: { MAX_MESSAGE_BYTES: String(1024 * 1024) },
    });
    transports.push(transport);
    const peer = new JsonRpcPeer();
    await peer.connect(transport);
    expect(await peer.request('echo', { ok: true })).toEqual({ ok: true });
    const began = Date.now();
    const answer = peer.request('echo', { text: 'x'.repeat(50 * 1024 * 1024) }, { timeoutMs: 30_000 });
    await expect(answer).rejects.toThrow(/Message too large.*limit of 1048576 bytes \(maxMessageBytes\)/);
    expect(Date.now() - began).toBeLessThan(10_000);
    // The server read past the line and goes on.
    expect(await peer.request('echo', { after: 1 })).toEqual({ after: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(transport.stderrTail).toMatch(/dropped a message of at least \d+ bytes, over the limit of 1048576 bytes/);
  }, 30_000);

  it('fails a request at once when the server answers with a line over the client’s limit', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=@mcpkit/source', '--import', 'tsx', limitFixture],
      maxMessageBytes: 64 * 1024,
    });
    transports.push(transport);
    const errors: Error[] = [];
    const peer = new JsonRpcPeer({ onError: (error) => errors.push(error) });
    await peer.connect(transport);
    const began = Date.now();
    await expect(peer.request('big', { bytes: 1024 * 1024 }, { timeoutMs: 20_000 })).rejects.toThrow(
      /response to this request was dropped: it is at least \d+ bytes, over the limit of 65536 bytes/,
    );
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(await peer.request('echo', { still: 'here' })).toEqual({ still: 'here' });
  }, 30_000);

  it('spawns the server and exchanges messages', async () => {
    const { transport, next } = start();
    await transport.start();
    const reply = next();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'echo', params: { text: 'hi' } });
    expect(await reply).toEqual({ jsonrpc: '2.0', id: 1, result: { text: 'hi' } });
  });

  it('passes only a safe subset of the environment unless told otherwise', async () => {
    process.env.MCPKIT_TEST_SECRET = 'hunter2';
    try {
      const safe = start({ env: { MCPKIT_GIVEN: 'yes' } });
      await safe.transport.start();
      let reply = safe.next();
      await safe.transport.send({ jsonrpc: '2.0', id: 1, method: 'env', params: { name: 'MCPKIT_TEST_SECRET' } });
      expect(await reply).toMatchObject({ result: { value: null } });
      reply = safe.next();
      await safe.transport.send({ jsonrpc: '2.0', id: 2, method: 'env', params: { name: 'MCPKIT_GIVEN' } });
      expect(await reply).toMatchObject({ result: { value: 'yes' } });

      const all = start({ inheritEnv: true });
      await all.transport.start();
      reply = all.next();
      await all.transport.send({ jsonrpc: '2.0', id: 3, method: 'env', params: { name: 'MCPKIT_TEST_SECRET' } });
      expect(await reply).toMatchObject({ result: { value: 'hunter2' } });
    } finally {
      delete process.env.MCPKIT_TEST_SECRET;
    }
  });

  it('reports the exit code and the tail of stderr when the server dies', async () => {
    const { transport } = start();
    const closed = new Promise<Error | undefined>((resolve) => {
      transport.onclose = (reason) => resolve(reason);
    });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'crash' });
    const reason = await closed;
    expect(reason).toBeInstanceOf(ServerProcessExitedError);
    expect((reason as ServerProcessExitedError).exitCode).toBe(3);
    expect(reason?.message).toMatch(/exited with code 3/);
    expect(reason?.message).toMatch(/the database is on fire/);
  });

  it('rejects every pending request at once, naming the exit code and stderr, when the server dies', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [fixture] });
    transports.push(transport);
    const peer = new JsonRpcPeer();
    await peer.connect(transport);
    // Two requests the fixture never answers, then one that kills it.
    const pending = [peer.request('unanswered-1'), peer.request('unanswered-2')].map((request) =>
      request.catch((error: unknown) => error),
    );
    const began = Date.now();
    void peer.request('crash').catch(() => {});
    const errors = (await Promise.all(pending)) as ConnectionClosedError[];
    expect(Date.now() - began).toBeLessThan(2_000);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect(error.message).toMatch(/exited with code 3/);
      expect(error.message).toMatch(/the database is on fire/);
      expect(error.cause).toBeInstanceOf(ServerProcessExitedError);
    }
  });

  it('does not crash when the command does not exist and start() comes later; start() reports it', async () => {
    const { transport } = start({ command: '/nonexistent/mcp-server' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(transport.start()).rejects.toThrow(/Could not start the MCP server process.*ENOENT/);
  });

  it('fails start() clearly when the command does not exist', async () => {
    const { transport } = start({ command: '/nonexistent/mcp-server' });
    await expect(transport.start()).rejects.toThrow(/Could not start the MCP server process.*ENOENT/);
  });

  it('shuts down gently: closing stdin is enough for a well-behaved server', async () => {
    const { transport } = start();
    let reason: Error | undefined | null = null;
    transport.onclose = (error) => {
      reason = error;
    };
    await transport.start();
    const began = Date.now();
    await transport.close();
    expect(Date.now() - began).toBeLessThan(1500);
    expect(reason).toBeUndefined();
  });

  it('writes what was sent in the turn it is closed in before it ends the server’s stdin', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'mcpkit-stdio-')), 'received.ndjson');
    const keep = `const fs = require('node:fs'); process.stdin.on('data', (d) => fs.appendFileSync(${JSON.stringify(file)}, d));`;
    const { transport } = start({ args: ['-e', keep] });
    await transport.start();
    transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await transport.close();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    });
  });

  it('escalates to SIGTERM then SIGKILL for a server that ignores both stdin and SIGTERM', async () => {
    const { transport, next } = start({ closeStdinGraceMs: 100, sigtermGraceMs: 100 });
    await transport.start();
    const ready = next();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'stubborn' });
    await ready;
    const pid = transport.pid!;
    const began = Date.now();
    await transport.close();
    // Both grace periods ran out before the kill.
    expect(Date.now() - began).toBeGreaterThanOrEqual(190);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
