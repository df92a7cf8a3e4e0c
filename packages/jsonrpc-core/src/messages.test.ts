import { describe, expect, it } from 'vitest';
import {
  isJsonRpcErrorResponse,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  isJsonRpcSuccessResponse,
} from './messages';

const request = { jsonrpc: '2.0', id: 1, method: 'ping' };
const notification = { jsonrpc: '2.0', method: 'notifications/initialized' };
const success = { jsonrpc: '2.0', id: 1, result: {} };
const nullResult = { jsonrpc: '2.0', id: 1, result: null };
const failure = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };

describe('message guards', () => {
  it('tell the four kinds apart', () => {
    const table = [request, notification, success, failure].map((message) => [
      isJsonRpcRequest(message),
      isJsonRpcNotification(message),
      isJsonRpcResponse(message),
      isJsonRpcSuccessResponse(message),
      isJsonRpcErrorResponse(message),
    ]);
    expect(table).toEqual([
      [true, false, false, false, false],
      [false, true, false, false, false],
      [false, false, true, true, false],
      [false, false, true, false, true],
    ]);
  });

  it('treat a null result as a success response', () => {
    expect(isJsonRpcSuccessResponse(nullResult)).toBe(true);
    expect(isJsonRpcResponse(nullResult)).toBe(true);
  });

  it('reject non-objects and objects without the distinguishing keys', () => {
    for (const value of [null, undefined, 42, 'ping', [], {}, { id: 1 }, { method: 5, id: 1 }]) {
      expect(isJsonRpcRequest(value)).toBe(false);
      expect(isJsonRpcNotification(value)).toBe(false);
      expect(isJsonRpcResponse(value)).toBe(false);
      expect(isJsonRpcErrorResponse(value)).toBe(false);
    }
  });
});
