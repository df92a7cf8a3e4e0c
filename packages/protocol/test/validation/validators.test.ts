import { describe, expect, it } from 'vitest';
import { getValidators, type SchemaRevision } from '../../src/validation/index.js';
import { PROTOCOL_VERSIONS as SCHEMA_REVISIONS } from '../../src/versions.js';

const meta2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const callTool2026 = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { _meta: meta2026, name: 'echo', arguments: { text: 'hi' } },
};
const callTool2025 = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hi' } },
};

describe('getValidators', () => {
  it('compiles each revision once', () => {
    for (const revision of SCHEMA_REVISIONS) {
      expect(getValidators(revision)).toBe(getValidators(revision));
      expect(getValidators(revision).version).toBe(revision);
    }
  });

  it('throws an actionable error for a revision it does not know', () => {
    expect(() => getValidators('2023-01-01' as SchemaRevision)).toThrow(
      /No validators for protocol revision "2023-01-01"; known revisions: 2024-11-05, .*2026-07-28/,
    );
  });
});

describe('message validators', () => {
  it('return the shared success object for valid messages (nothing allocated)', () => {
    const validators = getValidators('2026-07-28');
    const first = validators.clientRequest(callTool2026);
    expect(first).toEqual({ ok: true });
    expect(validators.clientRequest(callTool2026)).toBe(first);
    expect(validators.result('tools/list', { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'public' })).toBe(
      first,
    );
  });

  it('report an unknown method as a distinct issue, with envelope problems after it', () => {
    const verdict = getValidators('2025-11-25').clientRequest({ jsonrpc: '2.0', id: 2.5, method: 'tools/run' });
    expect(verdict).toEqual({
      ok: false,
      issues: [
        {
          path: '$.method',
          code: 'unknown_method',
          message: 'unknown method "tools/run": not a client request in protocol revision 2025-11-25',
        },
        { path: '$.id', code: 'invalid_type', message: 'expected integer, got number' },
      ],
    });
  });

  it('check the JSON-RPC envelope of older revisions too', () => {
    const verdict = getValidators('2024-11-05').clientRequest({ ...callTool2025, jsonrpc: '1.0', id: null });
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.issues.map((issue) => issue.path)).toEqual(['$.id', '$.jsonrpc']);
  });

  it('explain a non-object message at the root', () => {
    const verdict = getValidators('2025-06-18').serverNotification('hello');
    expect(verdict).toEqual({
      ok: false,
      issues: [{ path: '$', code: 'invalid_type', message: 'expected JSONRPCNotification, got string' }],
    });
  });

  it('validate the params of a known method with paths into the message', () => {
    const verdict = getValidators('2026-07-28').clientRequest({
      ...callTool2026,
      params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} }, name: 7 },
    });
    expect(verdict).toEqual({
      ok: false,
      issues: [
        {
          path: '$.params._meta["io.modelcontextprotocol/protocolVersion"]',
          code: 'missing_key',
          message: 'missing required key "io.modelcontextprotocol/protocolVersion" (string)',
        },
        { path: '$.params.name', code: 'invalid_type', message: 'expected string, got integer' },
      ],
    });
  });

  it('report a result of an unknown method and a type the revision lacks', () => {
    const validators = getValidators('2025-03-26');
    expect(validators.result('server/discover', {})).toEqual({
      ok: false,
      issues: [
        {
          path: '$',
          code: 'unknown_method',
          message: 'unknown method "server/discover": no result type in protocol revision 2025-03-26',
        },
      ],
    });
    expect(validators.byType('ResourceLink', {})).toEqual({
      ok: false,
      issues: [
        {
          path: '$',
          code: 'unknown_type',
          message: 'type ResourceLink does not exist in protocol revision 2025-03-26',
        },
      ],
    });
  });

  it('validate error responses', () => {
    const validators = getValidators('2026-07-28');
    expect(validators.errorResponse({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nope' } }).ok).toBe(true);
    const verdict = validators.errorResponse({ jsonrpc: '2.0', id: 1, error: { code: 'E1', message: 'nope' } });
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.issues[0]).toMatchObject({ path: '$.error.code', code: 'invalid_type' });
  });
});

describe('hot-path validators', () => {
  it('validate tool call params including the request envelope rules', () => {
    expect(getValidators('2024-11-05').callToolParams({ name: 'echo', arguments: { a: 1 } }).ok).toBe(true);
    // The envelope of 2024-11-05 requires `_meta.progressToken` to be a string or integer.
    expect(getValidators('2024-11-05').callToolParams({ name: 'echo', _meta: { progressToken: true } }).ok).toBe(false);
    expect(getValidators('2026-07-28').callToolParams({ name: 'echo' }).ok).toBe(false);
    expect(getValidators('2026-07-28').callToolParams(callTool2026.params).ok).toBe(true);
  });

  it('validate content blocks as each revision defines them', () => {
    const link = { type: 'resource_link', uri: 'file:///a', name: 'a' };
    expect(getValidators('2025-03-26').contentBlock(link).ok).toBe(false);
    expect(getValidators('2025-06-18').contentBlock(link).ok).toBe(true);
  });

  it('validate tools, list results and tool results', () => {
    const tool = { name: 'echo', inputSchema: { type: 'object' } };
    for (const revision of SCHEMA_REVISIONS) {
      const validators = getValidators(revision);
      expect(validators.tool(tool).ok).toBe(true);
      expect(validators.tool({ name: 'echo', inputSchema: { type: 'array' } }).ok).toBe(false);
    }
    const v = getValidators('2026-07-28');
    expect(v.listToolsResult({ resultType: 'complete', tools: [tool], ttlMs: 1000, cacheScope: 'private' }).ok).toBe(
      true,
    );
    expect(v.listPromptsResult({ resultType: 'complete', prompts: [], ttlMs: -1, cacheScope: 'private' }).ok).toBe(
      false,
    );
    expect(v.listResourcesResult({ resultType: 'complete', resources: [], ttlMs: 0, cacheScope: 'public' }).ok).toBe(
      true,
    );
    expect(
      v.listResourceTemplatesResult({ resultType: 'complete', resourceTemplates: [], ttlMs: 0, cacheScope: 'x' }).ok,
    ).toBe(false);
    expect(v.callToolResult({ resultType: 'complete', content: [{ type: 'text', text: 'hi' }] }).ok).toBe(true);
  });

  it('validate initialize params and result up to 2025-11-25', () => {
    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } };
    const result = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } };
    expect(getValidators('2025-11-25').initializeParams(params).ok).toBe(true);
    expect(getValidators('2025-11-25').initializeResult(result).ok).toBe(true);
    expect(getValidators('2025-11-25').initializeParams({ ...params, clientInfo: { name: 'c' } }).ok).toBe(false);
  });

  it('validate the 2026 request _meta envelope, discover and input_required results', () => {
    const v = getValidators('2026-07-28');
    expect(v.requestMeta(meta2026).ok).toBe(true);
    expect(v.requestMeta({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' })).toEqual({
      ok: false,
      issues: [
        {
          path: '$["io.modelcontextprotocol/clientCapabilities"]',
          code: 'missing_key',
          message: 'missing required key "io.modelcontextprotocol/clientCapabilities" (ClientCapabilities)',
        },
      ],
    });
    expect(
      v.discoverResult({
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        ttlMs: 60_000,
        cacheScope: 'public',
      }).ok,
    ).toBe(true);
    expect(v.inputRequiredResult({ resultType: 'input_required', requestState: 'abc' }).ok).toBe(true);
    expect(v.inputRequiredResult({ resultType: 'input_required' })).toEqual({
      ok: false,
      issues: [
        {
          path: '$',
          code: 'invalid_value',
          message: 'an input_required result must carry inputRequests or requestState (or both)',
        },
      ],
    });
  });
});
