import { McpServer } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { connectInMemory, WireTranscript } from '../src/index';

const server = new McpServer({ name: 'memory', version: '1.0.0' });
server.registerTool('stamp', { description: 'Returns a fresh stamp', inputSchema: { type: 'object' } }, () => ({
  content: [{ type: 'text', text: 'ok' }],
  structuredContent: { createdAt: new Date().toISOString() },
}));

describe('connectInMemory', () => {
  it.each([
    ['2026-07-28', 'modern'],
    ['2025-11-25', 'legacy'],
    ['2024-11-05', 'legacy'],
  ])('connects in the era of %s and closes both ends on dispose', async (protocolVersion, era) => {
    const sessionsBefore = server.server.sessions.size;
    {
      await using connection = await connectInMemory(server, { protocolVersion });
      expect(connection.client.era).toBe(era);
      expect(connection.client.protocolVersion).toBe(protocolVersion);
      expect(server.server.sessions.has(connection.session)).toBe(true);
    }
    expect(server.server.sessions.size).toBe(sessionsBefore);
  });

  it('close() is idempotent and the client is disconnected after it', async () => {
    const connection = await connectInMemory(server);
    await Promise.all([connection.close(), connection.close()]);
    expect(connection.client.connected).toBe(false);
  });

  it('passes messageInfo to the server', async () => {
    const seen: unknown[] = [];
    const auth = { token: 't', clientId: 'app', scopes: ['x'] };
    const probe = new McpServer({ name: 'probe', version: '1.0.0' });
    probe.registerTool('who', { description: 'Who am I', inputSchema: { type: 'object' } }, (_args, ctx) => {
      seen.push(ctx.info.auth);
      return { content: [] };
    });
    await using connection = await connectInMemory(probe, { messageInfo: { auth } });
    await connection.client.callTool({ name: 'who', arguments: {} });
    expect(seen).toEqual([auth]);
  });
});

describe('WireTranscript', () => {
  it('redacts what changes between runs and keeps keys sorted', async () => {
    await using connection = await connectInMemory(server, { protocolVersion: '2025-11-25' });
    connection.transcript.clear();
    await connection.client.callTool({ name: 'stamp', arguments: {} });
    expect(connection.transcript.format({ redact: { createdAt: '<time>' } })).toBe(
      [
        'client → server  tools/call #2 {"arguments":{},"name":"stamp"}',
        'server → client  result #2 {"content":[{"text":"ok","type":"text"}],"structuredContent":{"createdAt":"<time>"}}',
      ].join('\n'),
    );
  });

  it('hides only the envelope keys of _meta', () => {
    const transcript = new WireTranscript();
    transcript.entries.push({
      from: 'client',
      message: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', progressToken: 5 } },
      },
    });
    expect(transcript.format({ hideEnvelope: true })).toBe(
      'client → server  tools/list #1 {"_meta":{"progressToken":5}}',
    );
    expect(transcript.format()).toContain('io.modelcontextprotocol/protocolVersion');
  });
});
