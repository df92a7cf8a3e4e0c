import { Client } from '@mcpkit/client';
import { createLinkedTransports, JsonRpcError, type JsonRpcMessage } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  limitMessageSize,
  MessageTooLargeError,
  ReplayError,
  recordTransport,
  replayTransport,
  tapTransport,
} from '../src/transport/index';
import { closePairs, pair } from './fixtures/memory-pair';
import { testServer } from './fixtures/servers';

afterEach(closePairs);

const methodOrId = (message: JsonRpcMessage) => ('method' in message ? message.method : `#${String(message.id)}`);

describe('tapTransport', () => {
  it('sees every message both ways, on the client side and on the server side', async () => {
    const { server } = testServer();
    const clientSaw: string[] = [];
    const serverSaw: string[] = [];
    const [clientSide, serverSide] = createLinkedTransports();
    await server.connect(
      tapTransport(serverSide, {
        inbound: (message) => serverSaw.push(`in ${methodOrId(message)}`),
        outbound: (message) => serverSaw.push(`out ${methodOrId(message)}`),
      }),
    );
    const client = new Client({ name: 't', version: '1' });
    let closedWith: Error | undefined | null = null;
    await client.connect(
      tapTransport(clientSide, {
        inbound: (message) => clientSaw.push(`in ${methodOrId(message)}`),
        outbound: (message) => {
          clientSaw.push(`out ${methodOrId(message)}`);
          throw new Error('a throwing observer is reported, never breaks the flow');
        },
        closed: (reason) => {
          closedWith = reason;
        },
      }),
      { era: 'legacy' },
    );
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    await client.close();
    expect(clientSaw).toEqual(['out initialize', 'in #1', 'out notifications/initialized', 'out tools/call', 'in #2']);
    expect(serverSaw).toEqual(['in initialize', 'out #1', 'in notifications/initialized', 'in tools/call', 'out #2']);
    expect(closedWith).toBeUndefined();
  });
});

describe('recordTransport / replayTransport', () => {
  it('records a conversation as NDJSON and replays it to a client without the server', async () => {
    const { server } = testServer();
    const written: string[] = [];
    let recording!: ReturnType<typeof recordTransport>;
    const { client } = await pair(server, {
      era: 'legacy',
      wrapClientTransport: (transport) => {
        recording = recordTransport(transport, { write: (line) => written.push(line) });
        return recording;
      },
    });
    const listed = await client.listTools();
    const called = await client.callTool({ name: 'echo', arguments: { text: 'recorded' } });
    await client.close();
    const ndjson = recording.ndjson();
    expect(ndjson.split('\n').filter(Boolean)).toEqual(written);
    expect(recording.lines.map((line) => `${line.dir} ${methodOrId(line.message)}`)).toEqual([
      'out initialize',
      'in #1',
      'out notifications/initialized',
      'out tools/list',
      'in #2',
      'out tools/call',
      'in #3',
    ]);

    const replay = replayTransport(ndjson);
    const offline = new Client({ name: 'replayed', version: '1' });
    await offline.connect(replay, { era: 'legacy' });
    expect(await offline.listTools()).toEqual(listed);
    expect(await offline.callTool({ name: 'echo', arguments: { text: 'recorded' } })).toEqual(called);
    expect(replay.finished).toBe(true);
    // Past the recording: the request fails at once with a ReplayError.
    const error = await offline.listPrompts().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    await offline.close();
  });

  it('fails a request that does not match the recording, naming both', async () => {
    const lines = [
      { dir: 'out', message: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } },
      { dir: 'in', message: { jsonrpc: '2.0', id: 1, result: { tools: [] } } },
    ];
    const replay = replayTransport(lines.map((line) => JSON.stringify(line)).join('\n'));
    const errors: Error[] = [];
    replay.onerror = (error) => errors.push(error);
    await replay.start();
    await expect(replay.send({ jsonrpc: '2.0', id: 7, method: 'prompts/list' })).rejects.toThrow(
      "Recording line 1 expected request 'tools/list', got request 'prompts/list'",
    );
    expect(errors[0]).toBeInstanceOf(ReplayError);
    // Ids are mapped: a client numbering from 7 still gets its answer under 7.
    const received: JsonRpcMessage[] = [];
    replay.onmessage = (message) => received.push(message);
    await replay.send({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received).toEqual([{ jsonrpc: '2.0', id: 7, result: { tools: [] } }]);
  });

  it('refuses a malformed recording at once', () => {
    expect(() => replayTransport('{"dir":"sideways","message":{}}')).toThrow(ReplayError);
    expect(() => replayTransport('not json')).toThrow('Recording line 1 is not JSON');
  });
});

describe('limitMessageSize', () => {
  it('answers an oversized request with 413, fails an oversized call at once, and loses nothing silently', async () => {
    const { server, calls } = testServer();
    server.registerTool('big', {}, () => {
      calls.push('big');
      return { content: [{ type: 'text', text: 'z'.repeat(3_000) }] };
    });
    const serverErrors: Error[] = [];
    const [clientSide, serverSide] = createLinkedTransports();
    const limited = limitMessageSize(serverSide, { maxBytes: 2_000 });
    const session = await server.connect(limited);
    session.onerror = (error) => serverErrors.push(error);
    const client = new Client({ name: 't', version: '1' }, { requestTimeoutMs: 5_000 });
    await client.connect(clientSide, { era: 'legacy' });

    // Inbound request too large: the server never runs it, the client gets 413 at once.
    const big = 'é'.repeat(1_500); // 3 000 bytes of UTF-8
    const error = await client.callTool({ name: 'echo', arguments: { text: big } }).catch((caught) => caught);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(413);
    expect(error.data).toMatchObject({ direction: 'inbound', maxBytes: 2_000, method: 'tools/call' });
    expect(error.data.bytes).toBeGreaterThan(3_000);
    expect(calls).toEqual([]);
    expect(serverErrors[0]).toBeInstanceOf(MessageTooLargeError);

    // Outbound response too large: replaced by an error response, so the caller does not wait.
    const result = await client.callTool({ name: 'big', arguments: {} }).catch((caught) => caught);
    expect(result).toBeInstanceOf(JsonRpcError);
    expect(result.code).toBe(413);
    expect(result.message).toContain('The result is too large to send');
    expect(result.data).toMatchObject({ direction: 'outbound', maxBytes: 2_000 });
    expect(calls).toEqual(['big']);
    await client.close();
  });

  it('fails an outbound request over the limit with MessageTooLargeError, and delivers what fits', async () => {
    const { server } = testServer();
    const [clientSide, serverSide] = createLinkedTransports();
    await server.connect(serverSide);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(limitMessageSize(clientSide, { maxBytes: 600, direction: 'outbound' }), { era: 'legacy' });
    expect((await client.callTool({ name: 'echo', arguments: { text: 'fits' } })).content[0]).toMatchObject({
      text: 'fits',
    });
    const error = await client.callTool({ name: 'echo', arguments: { text: 'y'.repeat(700) } }).catch((e) => e);
    expect(error).toBeInstanceOf(MessageTooLargeError);
    expect(error.message).toMatch(/^Outbound request 'tools\/call' is \d+ bytes, over the limit of 600$/);
    await client.close();
  });
});
