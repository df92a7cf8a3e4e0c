import { describe, expect, it } from 'vitest';
import { parseMessage, serializeMessage, validateMessage } from './parse';

function invalidRequest(text: string) {
  const result = parseMessage(text);
  if (result.ok) throw new Error(`expected ${text} to be rejected`);
  expect(result.error.error.code).toBe(-32600);
  expect(result.error.jsonrpc).toBe('2.0');
  return result.error;
}

describe('parseMessage', () => {
  it('accepts each kind of message', () => {
    const texts = [
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"x"}}',
      '{"jsonrpc":"2.0","id":2,"method":"sum","params":[1,2]}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      '{"jsonrpc":"2.0","id":1,"result":null}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found","data":{"method":"x"}}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
      '{"jsonrpc":"2.0","id":1.5,"method":"fractional ids are valid JSON-RPC"}',
    ];
    for (const text of texts) {
      const result = parseMessage(text);
      expect(result).toEqual({ ok: true, message: JSON.parse(text) });
    }
  });

  it('gives -32700 with a null id for text that is not JSON', () => {
    for (const text of ['', '{', 'not json', '{"jsonrpc":"2.0",}', '\u0000']) {
      const result = parseMessage(text);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.id).toBeNull();
      expect(result.error.error.code).toBe(-32700);
      expect(result.error.error.message).toMatch(/^Parse error: /);
    }
  });

  it('marks an invalid message shaped as a notification (method, no id): it is never answered', () => {
    const notification = parseMessage('{"jsonrpc":"2.0","method":"x","params":"x"}');
    expect(notification.ok === false && notification.notification).toBe(true);
    const request = parseMessage('{"jsonrpc":"2.0","id":1,"method":"x","params":"x"}');
    expect(request.ok === false && request.notification).toBeFalsy();
    const garbage = parseMessage('{"jsonrpc":"2.0"}');
    expect(garbage.ok === false && garbage.notification).toBeFalsy();
  });

  it('rejects JSON that is not an object', () => {
    for (const text of ['null', '1', '"ping"', 'true']) {
      expect(invalidRequest(text).id).toBeNull();
    }
  });

  it('rejects a wrong or missing jsonrpc version, recovering the id', () => {
    expect(invalidRequest('{"jsonrpc":"1.0","id":3,"method":"ping"}').id).toBe(3);
    expect(invalidRequest('{"id":"x","method":"ping"}').id).toBe('x');
    expect(invalidRequest('{"jsonrpc":2,"id":4,"method":"ping"}').error.message).toContain('"jsonrpc"');
  });

  it('rejects bad id types on requests', () => {
    for (const id of ['null', 'true', '{}', '[1]']) {
      const error = invalidRequest(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
      expect(error.id).toBeNull();
      expect(error.error.message).toContain('"id"');
    }
    expect(validateMessage({ jsonrpc: '2.0', id: Number.NaN, method: 'ping' }).ok).toBe(false);
    expect(validateMessage({ jsonrpc: '2.0', id: Number.POSITIVE_INFINITY, method: 'ping' }).ok).toBe(false);
  });

  it('rejects a method that is not a string, recovering the id', () => {
    const error = invalidRequest('{"jsonrpc":"2.0","id":5,"method":3}');
    expect(error.id).toBe(5);
    expect(error.error.message).toContain('"method"');
  });

  it('rejects scalar or null params, recovering the id', () => {
    for (const params of ['1', '"text"', 'true', 'null']) {
      const error = invalidRequest(`{"jsonrpc":"2.0","id":"p","method":"m","params":${params}}`);
      expect(error.id).toBe('p');
      expect(error.error.message).toContain('"params"');
    }
    expect(invalidRequest('{"jsonrpc":"2.0","method":"note","params":7}').id).toBeNull();
  });

  it('rejects a response with both result and error, or neither', () => {
    const both = invalidRequest('{"jsonrpc":"2.0","id":6,"result":1,"error":{"code":1,"message":"x"}}');
    expect(both.id).toBe(6);
    expect(both.error.message).toContain('exactly one');
    expect(invalidRequest('{"jsonrpc":"2.0","id":7}').id).toBe(7);
  });

  it('rejects a success response without a usable id', () => {
    invalidRequest('{"jsonrpc":"2.0","result":1}');
    invalidRequest('{"jsonrpc":"2.0","id":null,"result":1}');
  });

  it('rejects malformed error objects', () => {
    expect(invalidRequest('{"jsonrpc":"2.0","id":8,"error":{"message":"no code"}}').error.message).toContain(
      'error.code',
    );
    expect(invalidRequest('{"jsonrpc":"2.0","id":8,"error":{"code":1.5,"message":"x"}}').error.message).toContain(
      'error.code',
    );
    expect(invalidRequest('{"jsonrpc":"2.0","id":8,"error":{"code":-1}}').error.message).toContain('error.message');
    expect(invalidRequest('{"jsonrpc":"2.0","id":8,"error":"boom"}').id).toBe(8);
    expect(invalidRequest('{"jsonrpc":"2.0","id":{},"error":{"code":1,"message":"x"}}').id).toBeNull();
  });

  it('accepts an error response without id (MCP 2025-11-25+) and sets id to null', () => {
    const result = parseMessage('{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}');
    expect(result).toEqual({
      ok: true,
      message: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } },
    });
  });

  it('rejects batches unless allowed', () => {
    const error = invalidRequest('[{"jsonrpc":"2.0","method":"a"}]');
    expect(error.id).toBeNull();
    expect(error.error.message).toContain('batch');
  });

  it('rejects an empty batch even when batches are allowed', () => {
    const result = parseMessage('[]', { allowBatch: true });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('gives one outcome per batch element when batches are allowed', () => {
    const result = parseMessage(
      '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},5,{"jsonrpc":"2.0","id":9,"method":[]},[]]',
      { allowBatch: true },
    );
    expect(result.ok).toBe(true);
    if (!result.ok || result.batch === undefined) throw new Error('expected a batch');
    expect(result.message).toBeUndefined();
    expect(result.batch.map((item) => item.ok)).toEqual([true, true, false, false, false]);
    expect(result.batch[0]).toEqual({ ok: true, message: { jsonrpc: '2.0', id: 1, method: 'a' } });
    expect(result.batch[3]).toMatchObject({ ok: false, error: { id: 9, error: { code: -32600 } } });
    // A nested array is not a valid batch element.
    expect(result.batch[4]).toMatchObject({ ok: false, error: { id: null } });
  });

  it('gives a single message (no batch key) when a batch is allowed but not sent', () => {
    const result = parseMessage('{"jsonrpc":"2.0","method":"a"}', { allowBatch: true });
    expect(result).toEqual({ ok: true, message: { jsonrpc: '2.0', method: 'a' } });
    expect(result.batch).toBeUndefined();
  });

  it('never throws, whatever it is given', () => {
    const inputs = ['{"__proto__":{"x":1}}', '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[{}]}}', '1e999'];
    for (const input of inputs) expect(() => parseMessage(input)).not.toThrow();
    for (const value of [undefined, Symbol('x'), () => 1, new Map(), Object.create(null)]) {
      expect(() => validateMessage(value)).not.toThrow();
      expect(validateMessage(value).ok).toBe(false);
    }
  });
});

describe('serializeMessage', () => {
  it('is JSON with newlines escaped, so it is one NDJSON frame', () => {
    const text = serializeMessage({ jsonrpc: '2.0', id: 1, result: { text: 'line one\nline two\r\n' } });
    expect(text).not.toContain('\n');
    expect(JSON.parse(text).result.text).toBe('line one\nline two\r\n');
  });
});
