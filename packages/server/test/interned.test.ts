import { describe, expect, it } from 'vitest';
import { JsonInterner } from '../src/eras/interned';
import { McpServer } from '../src/index';
import { CLIENT_INFO, connect, initialize } from './harness';

describe('JsonInterner', () => {
  it('returns one frozen copy of equal values, and leaves values past its bound alone', () => {
    const interner = new JsonInterner();
    const first = interner.intern({ name: 'c', version: '1', nested: { a: [1] } });
    const second = interner.intern({ name: 'c', version: '1', nested: { a: [1] } });
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.nested.a)).toBe(true);
    expect(interner.intern({ name: 'c', version: '2' })).not.toBe(first);
    for (let i = 0; i < 300; i++) interner.intern({ i });
    const late = { i: 1_000 };
    expect(interner.intern(late)).toBe(late);
    expect(Object.isFrozen(late)).toBe(false);
  });
});

describe('legacy sessions share what they declared alike', () => {
  it('one clientInfo and clientCapabilities object for sessions that sent equal ones', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const a = await connect(server);
    const b = await connect(server);
    await initialize(a.client, '2025-11-25', { roots: { listChanged: true } });
    await initialize(b.client, '2025-11-25', { roots: { listChanged: true } });
    expect(b.session.clientInfo).toEqual(CLIENT_INFO);
    expect(b.session.clientInfo).toBe(a.session.clientInfo);
    expect(b.session.clientCapabilities).toBe(a.session.clientCapabilities);
    expect(b.session.clientCapabilities).toEqual({ roots: { listChanged: true } });
    await a.close();
    await b.close();
  });
});
