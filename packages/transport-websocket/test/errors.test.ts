import { describe, expect, it } from 'vitest';
import { closedError } from '../src/errors';
import { WebSocketTransportError } from '../src/index';
import { UpgradeRefusalError } from '../src/node/index';

// The brand keys are a contract: another copy of the package recognises these errors by them.
const foreign = (key: string) => Object.create(Error.prototype, { [Symbol.for(key)]: { value: true } });
// Seen through what the checks use (a union of the classes would not type `is`'s `this`).
type Recogniser = { is(value: unknown): boolean; [Symbol.hasInstance](value: unknown): boolean };

describe('the errors of @mcpkit/transport-websocket', () => {
  it('recognise instances from another copy by their brand keys, and nothing else', () => {
    for (const [Class, key] of [
      [WebSocketTransportError, '@mcpkit/transport-websocket/WebSocketTransportError'],
      [UpgradeRefusalError, '@mcpkit/transport-websocket/UpgradeRefusalError'],
    ] as [Recogniser, string][]) {
      expect(Class.is(foreign(key))).toBe(true);
      expect(foreign(key) instanceof Class).toBe(true);
      expect(Class.is(new Error('plain'))).toBe(false);
    }
    expect(UpgradeRefusalError.is(new WebSocketTransportError('ERR_WS_CONNECT', 'refused'))).toBe(false);
  });

  it('carry their code, data and name', () => {
    const closed = closedError(1009, 'too big', 'ws://127.0.0.1:1/mcp');
    expect(closed).toMatchObject({
      name: 'WebSocketTransportError',
      code: 'ERR_WS_CLOSED',
      data: { closeCode: 1009, closeReason: 'too big', url: 'ws://127.0.0.1:1/mcp' },
    });
    expect(closed.message).toBe('WebSocket closed with code 1009 (message too big), reason "too big"');
    expect(new WebSocketTransportError('ERR_WS_BINARY_FRAME', 'binary').data).toEqual({});
    const refusal = new UpgradeRefusalError('bad status', { status: 200 });
    expect(refusal).toMatchObject({ name: 'UpgradeRefusalError', code: 'ERR_WS_BAD_REFUSAL', data: { status: 200 } });
  });
});
