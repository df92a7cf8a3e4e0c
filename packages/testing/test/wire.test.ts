import { readFileSync } from 'node:fs';
import { createLinkedTransports, JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { checkWire, formatViolation, REVISIONS, WireViolationError, wireSchema } from '../src/wire/index';
import { SCHEMA_TEXTS } from '../src/wire/schemas/index';

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

describe('the wire checker’s report', () => {
  it('says who sent what, against which revision, what is wrong, and shows the message', async () => {
    const [a, b] = createLinkedTransports();
    const checked = checkWire(b, { side: 'server', revision: '2025-11-25' });
    const server = new JsonRpcPeer();
    server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'broken' }] }));
    const client = new JsonRpcPeer();
    await Promise.all([server.connect(checked), client.connect(a)]);
    await client.request('tools/list', {});
    const text = formatViolation(checked.violations[0]!);
    expect(text).toContain('server sent an invalid response to request 1 (checked against MCP 2025-11-25):');
    expect(text).toMatch(/- ListToolsResult\/tools\/0 must have required property 'inputSchema'/);
    expect(text).toContain('message: {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"broken"}]}}');
    const error = (() => {
      try {
        checked.assertClean();
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(WireViolationError);
    expect((error as WireViolationError).code).toBe('ERR_WIRE_VIOLATION');
    expect((error as WireViolationError).data.violations).toHaveLength(1);
  });
});

describe('the schemas bundled in the package', () => {
  it.each(REVISIONS)(
    '%s is the official schema the repository carries (run sync-schemas after updating it)',
    (revision) => {
      const official = JSON.parse(
        readFileSync(new URL(`../../protocol/test/fixtures/spec/${revision}/schema.json`, import.meta.url), 'utf8'),
      );
      expect(JSON.parse(SCHEMA_TEXTS[revision])).toEqual(official);
    },
  );
});
