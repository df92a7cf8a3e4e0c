import { describe, expect, it } from 'vitest';
import { InMemoryEventStore, type StoredEvent } from '../../src/index';
import { get, handlerFor, initialize, type Loose, messagesOf, post, readEvents, request, session } from './harness';

function event(seq: number, data = `{"n":${seq}}`, stream = 's', previousSeq = seq - 1): StoredEvent {
  return { id: `${stream}-${seq.toString(36)}`, seq, previousSeq, data };
}

const seqs = (events: readonly StoredEvent[]) => events.map((e) => e.seq);

describe('InMemoryEventStore retention', () => {
  it('keeps at most maxEventsPerSession per session, dropping the oldest', () => {
    const store = new InMemoryEventStore({ maxEventsPerSession: 3 });
    for (let seq = 1; seq <= 5; seq++) store.append('a', 's', event(seq));
    store.append('b', 's', event(1));
    expect(seqs(store.replayAfter('a', 's', 0))).toEqual([3, 4, 5]);
    expect(seqs(store.replayAfter('b', 's', 0))).toEqual([1]);
    expect(store.size).toBe(4);
  });

  it('keeps at most maxBytesPerSession per session, but always the newest event', () => {
    const store = new InMemoryEventStore({ maxBytesPerSession: 1_200 });
    store.append('a', 's', event(1, 'x'.repeat(300)));
    store.append('a', 's', event(2, 'x'.repeat(300)));
    store.append('a', 's', event(3, 'x'.repeat(300)));
    expect(seqs(store.replayAfter('a', 's', 0))).toEqual([2, 3]);
    store.append('a', 's', event(4, 'x'.repeat(5_000)));
    expect(seqs(store.replayAfter('a', 's', 0))).toEqual([4]);
  });

  it('keeps at most maxBytes across sessions, dropping the oldest of all', () => {
    const store = new InMemoryEventStore({ maxBytes: 1_200 });
    store.append('a', 's', event(1, 'x'.repeat(300)));
    store.append('b', 's', event(1, 'x'.repeat(300)));
    store.append('a', 's', event(2, 'x'.repeat(300)));
    expect(seqs(store.replayAfter('a', 's', 0))).toEqual([2]);
    expect(seqs(store.replayAfter('b', 's', 0))).toEqual([1]);
    expect(store.bytes).toBeLessThanOrEqual(1_200);
  });

  it('drops events older than maxAgeMs, on append and on replay', () => {
    let now = 1_000;
    const store = new InMemoryEventStore({ maxAgeMs: 100, now: () => now });
    store.append('a', 's', event(1));
    now += 60;
    store.append('a', 's', event(2));
    now += 60;
    expect(seqs(store.replayAfter('a', 's', 0))).toEqual([2]);
    now += 60;
    expect(seqs(store.replayAfter('a', 's', 0))).toEqual([]);
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it('replays one stream after a seq, and forgets a deleted session', () => {
    const store = new InMemoryEventStore();
    store.append('a', '1', event(2, 'one', '1', 1));
    store.append('a', '0', event(3, 'zero', '0', 0));
    store.append('a', '1', event(4, 'two', '1', 2));
    expect(store.replayAfter('a', '1', 2).map((e) => e.data)).toEqual(['two']);
    expect(store.replayAfter('a', '0', 0).map((e) => e.data)).toEqual(['zero']);
    store.deleteSession('a');
    expect(store.replayAfter('a', '1', 0)).toEqual([]);
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it('stays bounded under a long run of sessions coming and going', () => {
    const store = new InMemoryEventStore({ maxEventsPerSession: 8, maxBytes: 50_000 });
    for (let round = 0; round < 2_000; round++) {
      const id = `s${round % 50}`;
      for (let seq = 1; seq <= 10; seq++) store.append(id, 'x', event(round * 10 + seq));
      if (round % 7 === 0) store.deleteSession(id);
    }
    expect(store.size).toBeLessThanOrEqual(50 * 8);
    expect(store.bytes).toBeLessThanOrEqual(50_000);
  });

  it('refuses limits below 1', () => {
    expect(() => new InMemoryEventStore({ maxEventsPerSession: 0 })).toThrow(RangeError);
    expect(() => new InMemoryEventStore({ maxAgeMs: -1 })).toThrow(RangeError);
  });
});

describe('resuming past evicted events', () => {
  it('replays what is left and reports the gap through onError', async () => {
    const errors: Error[] = [];
    const store = new InMemoryEventStore({ maxEventsPerSession: 2 });
    const { handler } = handlerFor({ eventStore: store, onError: (error) => errors.push(error) });
    const { sessionId } = await initialize(handler);
    const call = await handler.handle(
      post(
        request('tools/call', { name: 'progress', arguments: { steps: 4 }, _meta: { progressToken: 'e' } }, 'ev'),
        session(sessionId!),
      ),
    );
    const { events } = await readEvents(call);
    expect(messagesOf(events)).toHaveLength(5);
    const resumed = await handler.handle(get({ ...session(sessionId!), 'last-event-id': events[0]!.id! }));
    const resumedEvents = (await readEvents(resumed)).events;
    const replay = messagesOf(resumedEvents);
    expect(replay.map((m: Loose) => m.params?.progress ?? `response:${m.id}`)).toEqual([4, 'response:ev']);
    expect(errors.map((error) => error.message)).toEqual([expect.stringContaining('no longer in the event store')]);
    // The client is told too: an event of its own type after what was left, naming the id it resumed from.
    const gaps = resumedEvents.filter((event) => event.event === 'mcpkit-gap');
    expect(gaps.map((event) => JSON.parse(event.data))).toEqual([{ lastEventId: events[0]!.id }]);
    // Resuming from the last event the store still has after is no gap.
    errors.length = 0;
    const again = await handler.handle(get({ ...session(sessionId!), 'last-event-id': events[3]!.id! }));
    const againEvents = (await readEvents(again)).events;
    expect(messagesOf(againEvents)).toHaveLength(2);
    expect(againEvents.filter((event) => event.event === 'mcpkit-gap')).toEqual([]);
    expect(errors).toEqual([]);
    await handler.close();
  });
});
