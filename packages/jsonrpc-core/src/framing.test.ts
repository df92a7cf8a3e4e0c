import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrameTooLargeError } from './errors';
import { DEFAULT_MAX_LINE_BYTES, encodeLine, LineDecoder } from './framing';

const encoder = new TextEncoder();

function collect(options: { maxLineBytes?: number } = {}) {
  const lines: string[] = [];
  const errors: Error[] = [];
  const decoder = new LineDecoder({
    onLine: (line) => lines.push(line),
    onError: (error) => errors.push(error),
    ...options,
  });
  return { decoder, lines, errors };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('LineDecoder', () => {
  it('splits lines within one chunk and across chunks', () => {
    const { decoder, lines } = collect();
    decoder.push(encoder.encode('{"a":1}\n{"b":'));
    decoder.push(encoder.encode('2}\n{"c"'));
    decoder.push(encoder.encode(':3}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(decoder.pendingSize).toBe(0);
  });

  it('accepts string chunks the same way', () => {
    const { decoder, lines } = collect();
    decoder.push('{"a":1}\n{"b"');
    decoder.push(':2}\r\n');
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('reassembles a multi-byte UTF-8 character split at every possible byte', () => {
    const text = '{"text":"héllo €uro 🎉 done"}';
    const bytes = encoder.encode(`${text}\n`);
    for (let cut = 1; cut < bytes.length; cut++) {
      const { decoder, lines } = collect();
      decoder.push(bytes.subarray(0, cut));
      decoder.push(bytes.subarray(cut));
      expect(lines).toEqual([text]);
    }
    // And one byte at a time.
    const { decoder, lines } = collect();
    for (let index = 0; index < bytes.length; index++) decoder.push(bytes.subarray(index, index + 1));
    expect(lines).toEqual([text]);
  });

  it('strips CRLF, including a CR and LF split across chunks', () => {
    const { decoder, lines } = collect();
    decoder.push(encoder.encode('{"a":1}\r'));
    decoder.push(encoder.encode('\n{"b":2}\r\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('skips empty and whitespace-only lines', () => {
    const { decoder, lines } = collect();
    decoder.push(encoder.encode('\n\n   \n\t\r\n{"a":1}\n \r\n\n  {"b":2}  \n'));
    expect(lines).toEqual(['{"a":1}', '  {"b":2}  ']);
  });

  it('delivers a final unterminated line on end() and can be reused afterwards', () => {
    const { decoder, lines } = collect();
    decoder.push(encoder.encode('{"a":1}\n{"b":2}'));
    expect(lines).toEqual(['{"a":1}']);
    decoder.end();
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    decoder.end();
    decoder.push(encoder.encode('{"c":3}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('drops an over-long line split across chunks, reports it once and resynchronises at the next newline', () => {
    const { decoder, lines, errors } = collect({ maxLineBytes: 10 });
    decoder.push(encoder.encode('{"ok":1}\n0123456'));
    decoder.push(encoder.encode('789abcdef'));
    expect(decoder.pendingSize).toBe(0); // nothing past the limit is buffered
    decoder.push(encoder.encode('ghijklmnop'));
    decoder.push(encoder.encode('qrs\n{"ok":2}\n'));
    expect(lines).toEqual(['{"ok":1}', '{"ok":2}']);
    expect(errors).toHaveLength(1);
    const error = errors[0]!;
    expect(FrameTooLargeError.is(error)).toBe(true);
    expect((error as FrameTooLargeError).data).toEqual({
      maxLineBytes: 10,
      receivedBytes: 16,
      head: { id: undefined, kind: undefined },
    });
  });

  it('drops an over-long line that arrives whole in one chunk', () => {
    const { decoder, lines, errors } = collect({ maxLineBytes: 8 });
    decoder.push('{"ok":1}\n{"too":"long"}\n{"ok":2}\n');
    expect(lines).toEqual(['{"ok":1}', '{"ok":2}']);
    expect(errors).toHaveLength(1);
    expect((errors[0] as FrameTooLargeError).data.receivedBytes).toBe(14);
  });

  it('reads the id of an oversized line from its start, in bytes or text, split or whole', () => {
    const line = `{"jsonrpc":"2.0","id":"r-7","method":"tools/call","params":{"text":"${'é'.repeat(200)}"}}`;
    for (const asBytes of [false, true]) {
      for (const chunkSize of [1, 7, 64, line.length]) {
        const { decoder, errors } = collect({ maxLineBytes: 100 });
        const bytes = encoder.encode(`${line}\n`);
        for (let at = 0; at < bytes.length; at += chunkSize) {
          const piece = bytes.subarray(at, at + chunkSize);
          decoder.push(asBytes ? piece : new TextDecoder().decode(piece));
        }
        expect(errors).toHaveLength(1);
        expect((errors[0] as FrameTooLargeError).data.head).toEqual({ id: 'r-7', kind: 'request' });
      }
    }
  });

  it('accepts a line of exactly maxLineBytes', () => {
    const { decoder, lines, errors } = collect({ maxLineBytes: 8 });
    decoder.push('{"ok":1}\n');
    expect(lines).toEqual(['{"ok":1}']);
    expect(errors).toEqual([]);
  });

  it('defaults maxLineBytes to 16 MiB and rejects a non-positive limit', () => {
    expect(new LineDecoder({ onLine: () => {} }).maxLineBytes).toBe(16 * 1024 * 1024);
    expect(DEFAULT_MAX_LINE_BYTES).toBe(16 * 1024 * 1024);
    expect(() => new LineDecoder({ onLine: () => {}, maxLineBytes: 0 })).toThrow(RangeError);
  });

  it('passes errors thrown by onLine to onError and keeps decoding', () => {
    const seen: string[] = [];
    const errors: Error[] = [];
    const decoder = new LineDecoder({
      onLine: (line) => {
        seen.push(line);
        if (line === 'bad') throw new Error('consumer failed');
      },
      onError: (error) => errors.push(error),
    });
    decoder.push('one\nbad\ntwo\n');
    expect(seen).toEqual(['one', 'bad', 'two']);
    expect(errors.map((error) => error.message)).toEqual(['consumer failed']);
  });

  it('without onError, throws after processing the whole chunk', () => {
    const seen: string[] = [];
    const decoder = new LineDecoder({ onLine: (line) => seen.push(line), maxLineBytes: 4 });
    expect(() => decoder.push('ok\ntoolong\nok2\n')).toThrow(FrameTooLargeError);
    expect(seen).toEqual(['ok', 'ok2']);
    decoder.push('ok3\n');
    expect(seen).toEqual(['ok', 'ok2', 'ok3']);
  });

  it('decodes a 10 MB line arriving in 64 KiB chunks in linear time, joining once', () => {
    const payload = 'x'.repeat(10 * 1024 * 1024);
    const bytes = encoder.encode(`{"data":"${payload}"}\n`);
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    const { decoder, lines } = collect();
    const started = performance.now();
    const chunkSize = 64 * 1024;
    for (let offset = 0; offset < bytes.length; offset += chunkSize) {
      decoder.push(bytes.subarray(offset, offset + chunkSize));
    }
    const elapsed = performance.now() - started;
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBe(bytes.length - 1);
    expect(decode).toHaveBeenCalledTimes(1);
    expect(elapsed).toBeLessThan(1000);
  });

  it('decodes 10,000 small lines pushed as one chunk', () => {
    const text = Array.from(
      { length: 10_000 },
      (_, index) => `{"jsonrpc":"2.0","method":"n","params":[${index}]}\n`,
    ).join('');
    const bytes = encoder.encode(text);
    const { decoder, lines } = collect();
    const started = performance.now();
    decoder.push(bytes);
    const elapsed = performance.now() - started;
    expect(lines).toHaveLength(10_000);
    expect(JSON.parse(lines[9_999]!).params).toEqual([9_999]);
    expect(elapsed).toBeLessThan(1000);
  });

  it('handles chunks that mix strings and bytes within one line', () => {
    const { decoder, lines } = collect();
    const euro = encoder.encode('€');
    decoder.push(encoder.encode('{"a":"'));
    decoder.push(euro.subarray(0, 1));
    decoder.push(euro.subarray(1));
    decoder.push('text"}');
    decoder.push(encoder.encode('\n'));
    expect(lines).toEqual(['{"a":"€text"}']);
  });
});

describe('encodeLine', () => {
  it('is the JSON plus exactly one trailing newline, which LineDecoder reads back', () => {
    const message = { jsonrpc: '2.0' as const, id: 1, result: { text: 'a\nb' } };
    const line = encodeLine(message);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    const { decoder, lines } = collect();
    decoder.push(encoder.encode(line + line));
    expect(lines.map((text) => JSON.parse(text))).toEqual([message, message]);
  });
});
