import { describe, expect, it } from 'vitest';
import { type SseTarget, SseWriter } from '../../src/server/sse';

// The SSE writer holds what is written until the web path reads `stream` or an adapter attaches its socket; either
// way the client gets every event in order, and the end.

class RecordingTarget implements SseTarget {
  readonly writes: string[] = [];
  ended = 0;
  destroyed = 0;
  /** What the "socket" has not sent yet: tests set it to play a client that does not read. */
  bufferedBytes = 0;
  write(text: string): void {
    this.writes.push(text);
  }
  end(): void {
    this.ended++;
  }
  destroy(): void {
    this.destroyed++;
  }
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('SseWriter', () => {
  it('a stream read late starts with what was written before, and ends at close', async () => {
    const writer = new SseWriter(0);
    writer.event('{"a":1}', '1-1');
    writer.raw(': note\n\n');
    const stream = writer.stream;
    writer.event('{"b":2}');
    writer.close();
    expect(await readAll(stream)).toBe(
      'id: 1-1\nevent: message\ndata: {"a":1}\n\n: note\n\nevent: message\ndata: {"b":2}\n\n',
    );
    expect(writer.stream).toBe(stream);
  });

  it('a stream made after close still carries the events and ends', async () => {
    const writer = new SseWriter(0);
    writer.event('{"only":true}');
    writer.close();
    expect(await readAll(writer.stream)).toBe('event: message\ndata: {"only":true}\n\n');
  });

  it('an attached target gets the pending text in one write, then each write, then one end', () => {
    const writer = new SseWriter(0);
    writer.event('1');
    writer.event('2');
    const target = new RecordingTarget();
    writer.attach(target);
    expect(target.writes).toEqual(['event: message\ndata: 1\n\nevent: message\ndata: 2\n\n']);
    writer.event('3');
    expect(target.writes).toHaveLength(2);
    writer.close();
    writer.close();
    writer.event('late');
    expect(target.ended).toBe(1);
    expect(target.writes).toHaveLength(2);
  });

  it('attaching after close writes everything and ends at once', () => {
    const writer = new SseWriter(0);
    writer.event('x');
    writer.close();
    const target = new RecordingTarget();
    writer.attach(target);
    expect(target.writes).toEqual(['event: message\ndata: x\n\n']);
    expect(target.ended).toBe(1);
  });

  it('cancel reports once, stops writing, and never follows close', () => {
    const writer = new SseWriter(0);
    const target = new RecordingTarget();
    writer.attach(target);
    let cancelled = 0;
    writer.onCancel = () => cancelled++;
    writer.cancel();
    writer.cancel();
    writer.event('after');
    expect(cancelled).toBe(1);
    expect(writer.open).toBe(false);
    expect(target.writes).toEqual([]);
    const closed = new SseWriter(0);
    closed.onCancel = () => cancelled++;
    closed.close();
    closed.cancel();
    expect(cancelled).toBe(1);
  });

  it('cancelling the web stream reports to onCancel', async () => {
    const writer = new SseWriter(0);
    let cancelled = 0;
    writer.onCancel = () => cancelled++;
    await writer.stream.cancel();
    expect(cancelled).toBe(1);
    expect(writer.open).toBe(false);
  });

  it('a body has one reader: the stream or a target', () => {
    const read = new SseWriter(0);
    void read.stream;
    expect(() => read.attach(new RecordingTarget())).toThrow(/already/);
    const attached = new SseWriter(0);
    attached.attach(new RecordingTarget());
    expect(() => attached.stream).toThrow(/already/);
    expect(() => attached.attach(new RecordingTarget())).toThrow(/already/);
  });

  it('keep-alive comments go to the attached target', async () => {
    const writer = new SseWriter(5);
    const target = new RecordingTarget();
    writer.attach(target);
    for (let i = 0; i < 100 && target.writes.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    writer.close();
    expect(target.writes[0]).toBe(': keep-alive\n\n');
  });

  it('keep-alive comments wait while anything is unsent', async () => {
    const writer = new SseWriter(5);
    const target = new RecordingTarget();
    target.bufferedBytes = 10;
    writer.attach(target);
    await new Promise((r) => setTimeout(r, 40));
    expect(target.writes).toEqual([]);
    writer.close();
  });
});

// Issue 12, defect 2: a client that never read its stream made the server buffer without bound.
describe('SseWriter back-pressure', () => {
  it('an attached target whose buffer reached the bound is destroyed at the next event, and onCancel runs', () => {
    const writer = new SseWriter(0, 100);
    const target = new RecordingTarget();
    writer.attach(target);
    let cancelled = 0;
    writer.onCancel = () => cancelled++;
    target.bufferedBytes = 99;
    writer.event('fits: the bound is not reached yet');
    expect(target.writes).toHaveLength(1);
    target.bufferedBytes = 100;
    writer.event('one too many');
    expect(target.writes).toHaveLength(1);
    expect(target.destroyed).toBe(1);
    expect(target.ended).toBe(0);
    expect(writer.overflowed).toBe(true);
    expect(writer.open).toBe(false);
    expect(cancelled).toBe(1);
    writer.close();
    writer.event('later');
    expect(target.writes).toHaveLength(1);
    expect(cancelled).toBe(1);
  });

  it('a web stream nobody reads errors past the bound and lets go of its queue', async () => {
    const writer = new SseWriter(0, 1_000);
    const stream = writer.stream;
    let cancelled = 0;
    writer.onCancel = () => cancelled++;
    const data = 'x'.repeat(300);
    for (let i = 0; i < 4; i++) writer.event(data);
    expect(writer.overflowed).toBe(false);
    expect(writer.bufferedBytes).toBeGreaterThanOrEqual(1_000);
    writer.event(data);
    expect(writer.overflowed).toBe(true);
    expect(cancelled).toBe(1);
    expect(writer.bufferedBytes).toBe(0);
    await expect(stream.getReader().read()).rejects.toThrow(/maxBufferedBytes/);
  });

  it('a web stream that is read never overflows', async () => {
    const writer = new SseWriter(0, 1_000);
    const reader = writer.stream.getReader();
    const data = 'x'.repeat(300);
    let bytes = 0;
    for (let i = 0; i < 100; i++) {
      writer.event(data);
      const { value } = await reader.read();
      bytes += value!.byteLength;
    }
    writer.close();
    expect(writer.overflowed).toBe(false);
    expect(bytes).toBe(100 * 'event: message\ndata: \n\n'.length + 100 * 300);
  });

  it('text written before any reader counts too: the late reader sees the failure', async () => {
    const late = new SseWriter(0, 500);
    for (let i = 0; i < 3; i++) late.event('x'.repeat(300));
    expect(late.overflowed).toBe(true);
    await expect(late.stream.getReader().read()).rejects.toThrow(/maxBufferedBytes/);
    const attached = new SseWriter(0, 500);
    for (let i = 0; i < 3; i++) attached.event('x'.repeat(300));
    const target = new RecordingTarget();
    attached.attach(target);
    expect(target.writes).toEqual([]);
    expect(target.destroyed).toBe(1);
  });

  it('refuses a bound below 1', () => {
    expect(() => new SseWriter(0, 0)).toThrow(RangeError);
  });
});
