import { describe, expect, it } from 'vitest';
import {
  ConnectionClosedError,
  FrameTooLargeError,
  InvalidMessageError,
  JsonRpcError,
  JsonRpcErrorCode,
  RequestAbortedError,
  RequestTimeoutError,
  UnknownResponseError,
} from './errors';

/** What another copy of this package (another bundle) would define: same registered brand, separate class. */
function foreignJsonRpcErrorClass() {
  class ForeignJsonRpcError extends Error {
    constructor(
      readonly code: number,
      message: string,
      readonly data?: unknown,
    ) {
      super(message);
    }
    toJSON() {
      return { code: this.code, message: this.message, data: this.data };
    }
  }
  Object.defineProperty(ForeignJsonRpcError.prototype, Symbol.for('@mcpkit/jsonrpc-core/JsonRpcError'), {
    value: true,
  });
  return ForeignJsonRpcError;
}

describe('JsonRpcErrorCode', () => {
  it('has the JSON-RPC 2.0 reserved codes', () => {
    expect(JsonRpcErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
    });
  });
});

describe('JsonRpcError', () => {
  it('carries code, message and data, and serialises to the wire error object', () => {
    const error = new JsonRpcError(-32602, 'bad params', { field: 'name' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('JsonRpcError');
    expect(error.toJSON()).toEqual({ code: -32602, message: 'bad params', data: { field: 'name' } });
    expect(JSON.parse(JSON.stringify({ error }))).toEqual({
      error: { code: -32602, message: 'bad params', data: { field: 'name' } },
    });
    expect(new JsonRpcError(-1, 'no data').toJSON()).toEqual({ code: -1, message: 'no data' });
  });

  it('round-trips through fromObject', () => {
    const error = JsonRpcError.fromObject({ code: -32000, message: 'custom', data: [1] });
    expect(error).toBeInstanceOf(JsonRpcError);
    expect([error.code, error.message, error.data]).toEqual([-32000, 'custom', [1]]);
  });

  it('has helpers for the common codes', () => {
    expect(JsonRpcError.methodNotFound('x').toJSON()).toEqual({
      code: -32601,
      message: 'Method not found: x',
      data: { method: 'x' },
    });
    expect(JsonRpcError.invalidParams('nope').code).toBe(-32602);
  });

  it('recognises an error from another copy of the package by its brand', () => {
    const Foreign = foreignJsonRpcErrorClass();
    const foreign = new Foreign(-32001, 'from the other bundle');
    expect(JsonRpcError.is(foreign)).toBe(true);
    expect(foreign instanceof JsonRpcError).toBe(true);
    expect(JsonRpcError.is(new Error('plain'))).toBe(false);
    expect(JsonRpcError.is({ code: -32001, message: 'look-alike' })).toBe(false);
    expect(JsonRpcError.is(null)).toBe(false);
    expect(JsonRpcError.is('JsonRpcError')).toBe(false);
  });

  it('keeps ordinary instanceof for subclasses', () => {
    class ToolError extends JsonRpcError {}
    class OtherError extends JsonRpcError {}
    const tool = new ToolError(-32000, 'tool failed');
    expect(tool instanceof ToolError).toBe(true);
    expect(tool instanceof JsonRpcError).toBe(true);
    expect(new OtherError(-32000, 'x') instanceof ToolError).toBe(false);
    expect(new JsonRpcError(-32000, 'x') instanceof ToolError).toBe(false);
    const Foreign = foreignJsonRpcErrorClass();
    expect(new Foreign(-1, 'x') instanceof ToolError).toBe(false);
  });
});

describe('local errors', () => {
  const locals = [
    new ConnectionClosedError('closed', { method: 'm', requestId: 1 }),
    new RequestTimeoutError('timed out', { method: 'm', requestId: 1, timeoutMs: 10, maxTotal: false }),
    new RequestAbortedError('aborted', { method: 'm', requestId: 1, reason: 'stop' }),
    new FrameTooLargeError('too large', {
      maxLineBytes: 1,
      receivedBytes: 2,
      head: { id: undefined, kind: undefined },
    }),
    new InvalidMessageError('invalid', { received: 1, error: { code: -32600, message: 'x' } }),
    new UnknownResponseError('unknown', { id: 9 }),
  ];
  // Seen through what the checks below use: a brand check and `instanceof`.
  const classes: { is(value: unknown): boolean; [Symbol.hasInstance](value: unknown): boolean }[] = [
    ConnectionClosedError,
    RequestTimeoutError,
    RequestAbortedError,
    FrameTooLargeError,
    InvalidMessageError,
    UnknownResponseError,
  ];

  it('have string codes and are never JsonRpcErrors', () => {
    expect(locals.map((error) => error.code)).toEqual([
      'ERR_CONNECTION_CLOSED',
      'ERR_REQUEST_TIMEOUT',
      'ERR_REQUEST_ABORTED',
      'ERR_FRAME_TOO_LARGE',
      'ERR_INVALID_MESSAGE',
      'ERR_UNKNOWN_RESPONSE',
    ]);
    for (const error of locals) {
      expect(JsonRpcError.is(error)).toBe(false);
      expect(error instanceof JsonRpcError).toBe(false);
      expect(typeof error.code).toBe('string');
    }
  });

  it('are each recognised only by their own class', () => {
    classes.forEach((Class, classIndex) => {
      locals.forEach((error, errorIndex) => {
        expect(Class.is(error)).toBe(classIndex === errorIndex);
        expect(error instanceof Class).toBe(classIndex === errorIndex);
      });
    });
  });

  it('are recognised across copies through their brand', () => {
    const foreign = Object.create(Error.prototype, {
      [Symbol.for('@mcpkit/jsonrpc-core/RequestTimeoutError')]: { value: true },
    });
    expect(RequestTimeoutError.is(foreign)).toBe(true);
    expect(foreign instanceof RequestTimeoutError).toBe(true);
    expect(ConnectionClosedError.is(foreign)).toBe(false);
  });

  it('RequestAbortedError exposes the reason and chains an Error reason as cause', () => {
    const reason = new Error('user cancelled');
    const error = new RequestAbortedError('aborted', { reason });
    expect(error.reason).toBe(reason);
    expect(error.cause).toBe(reason);
    expect(new RequestAbortedError('aborted', { reason: 'string reason' }).cause).toBeUndefined();
  });

  it('keep ordinary instanceof for classes derived from a local error', () => {
    class ServerGoneError extends ConnectionClosedError {}
    const derived = new ServerGoneError('gone', { method: 'x' });
    expect(derived instanceof ServerGoneError).toBe(true);
    expect(derived instanceof ConnectionClosedError).toBe(true);
    expect(ConnectionClosedError.is(derived)).toBe(true);
    expect(new ConnectionClosedError('closed') instanceof ServerGoneError).toBe(false);
    expect(derived.code).toBe('ERR_CONNECTION_CLOSED');
    expect(derived.name).toBe('ConnectionClosedError');
  });
});
