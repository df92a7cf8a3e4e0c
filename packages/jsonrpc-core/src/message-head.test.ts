import { describe, expect, it } from 'vitest';
import { readMessageHead } from './message-head';

describe('readMessageHead', () => {
  it('reads the id and kind of a request cut anywhere after its id', () => {
    const text = '{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"x","arguments":{"t":"abc"}}}';
    const idEnd = text.indexOf(',"method"');
    for (let cut = idEnd + 1; cut <= text.length; cut++) {
      expect(readMessageHead(text.slice(0, cut)).id).toBe(42);
    }
    expect(readMessageHead(text)).toEqual({ id: 42, kind: 'request' });
    expect(readMessageHead(text.slice(0, text.indexOf('"params"') + 12))).toEqual({ id: 42, kind: 'request' });
  });

  it('knows a response by its result or error member', () => {
    expect(readMessageHead('{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"xx')).toEqual({
      id: 'a',
      kind: 'response',
    });
    expect(readMessageHead('{"error":{"code":-1,"message":"m"},"id":3}')).toEqual({ id: 3, kind: 'response' });
  });

  it('keeps no id that was cut, and none that is not a string or a number', () => {
    expect(readMessageHead('{"jsonrpc":"2.0","id":12').id).toBeUndefined(); // 12 may go on: 123…
    expect(readMessageHead('{"id":"unfinished').id).toBeUndefined();
    expect(readMessageHead('{"id":null,"method":"x"}')).toEqual({ id: undefined, kind: 'request' });
    expect(readMessageHead('{"id":{"a":1},"method":"x"}').id).toBeUndefined();
  });

  it('skips nested values, strings with escapes and braces, and whitespace', () => {
    const text = ' { "params" : { "a" : [ 1 , "}\\"]" , { } ] } , "id" : "x\\"y" , "method":"m"';
    expect(readMessageHead(text)).toEqual({ id: 'x"y', kind: 'request' });
  });

  it('gives nothing for text that is not the start of an object', () => {
    for (const text of ['', '[{"id":1}]', 'garbage', '"id"', '{', '{"id"', '{"id":', '{id:1}']) {
      expect(readMessageHead(text)).toEqual({ id: undefined, kind: undefined });
    }
  });
});
