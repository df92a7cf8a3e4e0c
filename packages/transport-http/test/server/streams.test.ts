import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../src/index';
import {
  assertWire,
  drainMessages,
  get,
  handlerFor,
  initialize,
  type Loose,
  messagesOf,
  post,
  readEvents,
  request,
  session,
} from './harness';

describe('legacy streams', () => {
  it('routes unrelated notifications to the GET stream and request-related ones to their POST stream', async () => {
    const { handler, server, gates } = handlerFor();
    const { sessionId } = await initialize(handler);
    const standalone = await handler.handle(get(session(sessionId!)));
    expect(standalone.status).toBe(200);
    expect(standalone.headers.get('content-type')).toBe('text/event-stream');
    const second = await handler.handle(get(session(sessionId!)));
    expect(second.status).toBe(409);

    const call = await handler.handle(
      post(
        request('tools/call', { name: 'wait', arguments: { key: 'g1' }, _meta: { progressToken: 'g' } }, 'w1'),
        session(sessionId!),
      ),
    );
    const early = await readEvents(call, { until: (_e, all) => messagesOf(all).length === 1 });
    // While the call runs, a list change is unrelated to it: it must go on the GET stream.
    server.registerTool('added', {}, () => ({ content: [] }));
    const onGet = await readEvents(standalone, { until: (_e, all) => messagesOf(all).length === 1 });
    expect(messagesOf(onGet.events).map((m: Loose) => m.method)).toEqual(['notifications/tools/list_changed']);
    gates.get('g1')!();
    const late = [...messagesOf(early.events), ...(await drainMessages(early.reader))];
    expect(late.map((m: Loose) => m.method ?? `response:${m.id}`)).toEqual([
      'notifications/progress',
      'notifications/progress',
      'response:w1',
    ]);
    assertWire('2025-11-25', late);
    await handler.close();
  });

  it('serves several concurrent streams in one session; every message on exactly one stream', async () => {
    const { handler } = handlerFor();
    const { sessionId } = await initialize(handler);
    const count = 8;
    const responses = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        handler.handle(
          post(
            request(
              'tools/call',
              { name: 'progress', arguments: { steps: 3 }, _meta: { progressToken: `t${index}` } },
              `c${index}`,
            ),
            session(sessionId!),
          ),
        ),
      ),
    );
    const all = await Promise.all(responses.map(async (response) => messagesOf((await readEvents(response)).events)));
    for (const [index, messages] of all.entries()) {
      expect(messages).toHaveLength(4);
      expect(
        messages
          .filter((m: Loose) => m.method === 'notifications/progress')
          .every((m: Loose) => m.params.progressToken === `t${index}`),
      ).toBe(true);
      expect(messages.at(-1).id).toBe(`c${index}`);
    }
    const seen = all.flat().map((m: Loose) => JSON.stringify(m));
    expect(new Set(seen).size).toBe(seen.length);
    await handler.close();
  });

  it('a server→client request of a call goes on that call’s stream, and the client answers by POST', async () => {
    const { handler } = handlerFor();
    const { sessionId } = await initialize(handler);
    const call = await handler.handle(
      post(request('tools/call', { name: 'ask', arguments: {} }, 'ask1'), session(sessionId!)),
    );
    const first = await readEvents(call, { until: (_e, all) => messagesOf(all).length === 1 });
    const elicit = messagesOf(first.events)[0];
    expect(elicit.method).toBe('elicitation/create');
    assertWire('2025-11-25', [elicit]);
    const answer = await handler.handle(
      post(
        { jsonrpc: '2.0', id: elicit.id, result: { action: 'accept', content: { name: 'Ada' } } },
        session(sessionId!),
      ),
    );
    expect(answer.status).toBe(202);
    const text = JSON.stringify(await drainMessages(first.reader));
    expect(text).toContain('hello Ada');
    await handler.close();
  });

  it('resumes a stream the server closed mid-call: Last-Event-ID replays exactly the missing events', async () => {
    const { handler } = handlerFor();
    const { sessionId } = await initialize(handler);
    const call = await handler.handle(
      post(
        request('tools/call', { name: 'reconnect', arguments: {}, _meta: { progressToken: 'r' } }, 'r1'),
        session(sessionId!),
      ),
    );
    const first = await readEvents(call);
    expect(first.ended).toBe(true); // the server closed it mid-call
    const firstMessages = messagesOf(first.events);
    expect(firstMessages.map((m: Loose) => m.params?.message)).toEqual(['before close']);
    const lastId = first.events.at(-1)!.id!;
    await new Promise((resolve) => setTimeout(resolve, 60)); // the call finishes while nobody listens
    const resumed = await handler.handle(get({ ...session(sessionId!), 'last-event-id': lastId }));
    expect(resumed.status).toBe(200);
    const second = await readEvents(resumed);
    const replay = messagesOf(second.events);
    expect(replay.map((m: Loose) => m.params?.message ?? `response:${m.id}`)).toEqual(['after close', 'response:r1']);
    expect(replay.at(-1).result.content[0].text).toBe('survived');
    expect(second.ended).toBe(true);
    // Resuming from the priming event replays the whole stream.
    const again = await handler.handle(get({ ...session(sessionId!), 'last-event-id': first.events[0]!.id! }));
    expect(messagesOf((await readEvents(again)).events)).toHaveLength(3);
    await handler.close();
  });

  it('resumes a live stream: replayed events, then the rest live, none twice', async () => {
    const { handler, gates } = handlerFor();
    const { sessionId } = await initialize(handler);
    const call = await handler.handle(
      post(
        request('tools/call', { name: 'wait', arguments: { key: 'live' }, _meta: { progressToken: 'l' } }, 'l1'),
        session(sessionId!),
      ),
    );
    const first = await readEvents(call, { until: (event) => event.data === '' });
    const primingId = first.events[0]!.id!;
    await first.reader.cancel(); // the client's connection drops
    const resumed = await handler.handle(get({ ...session(sessionId!), 'last-event-id': primingId }));
    const replayed = await readEvents(resumed, { until: (_e, all) => messagesOf(all).length === 1 });
    gates.get('live')!();
    const messages = [...messagesOf(replayed.events), ...(await drainMessages(replayed.reader))];
    expect(messages.map((m: Loose) => m.params?.message ?? `response:${m.id}`)).toEqual([
      'waiting',
      'released',
      'response:l1',
    ]);
    await handler.close();
  });

  it('keeps a stream written in full replayable until the session ends (written is not received)', async () => {
    const store = new InMemoryEventStore();
    const { handler } = handlerFor({ eventStore: store });
    const { sessionId } = await initialize(handler);
    const response = await handler.handle(post(request('tools/list', {}, 'kept'), session(sessionId!)));
    const { events } = await readEvents(response);
    expect(store.size).toBe(1);
    // The client lost the connection before reading the response: it resumes from the priming event.
    const resumed = await handler.handle(get({ ...session(sessionId!), 'last-event-id': events[0]!.id! }));
    expect(messagesOf((await readEvents(resumed)).events).map((m: Loose) => m.id)).toEqual(['kept']);
    const deleted = await handler.handle(get(session(sessionId!), 'DELETE'));
    expect(deleted.status).toBe(200);
    expect(store.size).toBe(0);
    await handler.close();
  });

  it('without an event store: no ids, no priming, and Last-Event-ID is refused', async () => {
    const { handler } = handlerFor({ eventStore: false });
    const { sessionId } = await initialize(handler);
    const response = await handler.handle(post(request('ping', {}, 'np'), session(sessionId!)));
    const { events } = await readEvents(response);
    expect(events).toEqual([
      { id: undefined, event: 'message', data: JSON.stringify({ jsonrpc: '2.0', id: 'np', result: {} }) },
    ]);
    const resume = await handler.handle(get({ ...session(sessionId!), 'last-event-id': '1-1' }));
    expect(resume.status).toBe(400);
    await handler.close();
  });

  it('sends keep-alive comments on quiet streams', async () => {
    const { handler } = handlerFor({ keepAliveMs: 20 });
    const { sessionId } = await initialize(handler);
    const stream = await handler.handle(get(session(sessionId!)));
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + 2_000;
    while (!text.includes(': keep-alive') && Date.now() < deadline) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value);
    }
    expect(text).toContain(': keep-alive\n\n');
    await reader.cancel();
    await handler.close();
  });
});
