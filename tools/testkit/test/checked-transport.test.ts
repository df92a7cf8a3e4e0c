import { createLinkedTransports, JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { checkWire, wireSchema } from '../src/index';

describe('wireSchema', () => {
  it('accepts valid messages and names the problems of invalid ones, per revision', () => {
    const legacy = wireSchema('2025-06-18');
    expect(legacy.check({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } })).toEqual([]);
    expect(legacy.check({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }).join()).toMatch(/name/);
    expect(
      legacy.check({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } }, 'tools/call'),
    ).toEqual([]);
    expect(legacy.check({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'txt' }] } }, 'tools/call')).not.toEqual(
      [],
    );
    // server/discover does not exist before 2026-07-28.
    expect(legacy.check({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: {} }).join()).toMatch(
      /not a request/,
    );

    const modern = wireSchema('2026-07-28');
    // 2026-07-28 requests need the _meta envelope; results need resultType.
    expect(modern.check({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).not.toEqual([]);
    expect(modern.check({ jsonrpc: '2.0', id: 1, result: { tools: [] } }, 'tools/list')).not.toEqual([]);
  });
});

describe('checkWire', () => {
  it('collects what a peer sends that the revision does not allow', async () => {
    const [a, b] = createLinkedTransports();
    const checked = checkWire(b, { side: 'server', revision: '2025-06-18' });
    const server = new JsonRpcPeer();
    server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'broken' }] }));
    const client = new JsonRpcPeer();
    await Promise.all([server.connect(checked), client.connect(a)]);
    await client.request('tools/list', {});
    expect(checked.violations).toHaveLength(1);
    expect(checked.violations[0]!.sender).toBe('server');
    expect(() => checked.assertClean()).toThrow(/inputSchema/);
  });
});

describe('checkWire revision detection', () => {
  it('checks an initialize asking for an unknown version against the newest legacy revision', async () => {
    const [a, b] = createLinkedTransports();
    const checked = checkWire(b, { side: 'server' });
    const server = new JsonRpcPeer();
    server.setRequestHandler('initialize', () => ({
      protocolVersion: '2025-11-25',
      capabilities: {},
      serverInfo: { name: 's', version: '1' },
    }));
    const client = new JsonRpcPeer();
    await Promise.all([server.connect(checked), client.connect(a)]);
    await client.request('initialize', {
      protocolVersion: '2099-01-01',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    checked.assertClean();
  });
});
