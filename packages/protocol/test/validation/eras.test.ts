import { describe, expect, it } from 'vitest';
import { getValidators, type SchemaRevision, type ValidationResult } from '../../src/validation/index.js';
import { PROTOCOL_VERSIONS as SCHEMA_REVISIONS } from '../../src/versions.js';

// What changes between revisions, one rule per test, checked on every revision.

const legacy = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const satisfies readonly SchemaRevision[];

/** The revisions (of all five) for which `accepts` returns true. */
function accepting(accepts: (revision: SchemaRevision) => boolean): SchemaRevision[] {
  return SCHEMA_REVISIONS.filter(accepts);
}

function codes(result: ValidationResult): string[] {
  return result.ok ? [] : result.issues.map((issue) => issue.code);
}

const meta2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('results', () => {
  it('need resultType only from 2026-07-28', () => {
    const result = { content: [{ type: 'text', text: 'hi' }] };
    expect(accepting((revision) => getValidators(revision).callToolResult(result).ok)).toEqual(legacy);
    expect(getValidators('2026-07-28').callToolResult(result)).toEqual({
      ok: false,
      issues: [{ path: '$.resultType', code: 'missing_key', message: 'missing required key "resultType" (string)' }],
    });
    expect(getValidators('2026-07-28').callToolResult({ ...result, resultType: 'complete' }).ok).toBe(true);
  });

  it('of list/read/discover carry cache hints in 2026-07-28; result() reads them leniently', () => {
    const v = getValidators('2026-07-28');
    const tools = { resultType: 'complete', tools: [] };
    expect(codes(v.listToolsResult(tools))).toEqual(['missing_key', 'missing_key']);
    // SEP-2549: a client treats an absent or negative ttlMs as 0.
    expect(v.result('tools/list', tools).ok).toBe(true);
    expect(v.result('tools/list', { ...tools, ttlMs: -5 }).ok).toBe(true);
    expect(v.result('tools/list', { ...tools, cacheScope: 'shared' }).ok).toBe(false);
  });

  it('may be input_required only for tools/call, prompts/get and resources/read (2026-07-28)', () => {
    const v = getValidators('2026-07-28');
    const inputRequired = {
      resultType: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: { mode: 'url', message: 'Approve', url: 'https://example.com/approve' },
        },
      },
    };
    for (const method of ['tools/call', 'prompts/get', 'resources/read']) {
      expect(v.result(method, inputRequired), method).toEqual({ ok: true });
      expect(v.result(method, { resultType: 'input_required' }).ok, method).toBe(false);
    }
    expect(v.result('tools/list', inputRequired)).toEqual({
      ok: false,
      issues: [
        {
          path: '$',
          code: 'invalid_value',
          message: 'resultType "input_required" is only allowed for tools/call, prompts/get and resources/read',
        },
      ],
    });
    // Any other resultType is read as the complete result.
    expect(v.result('tools/call', { resultType: 'complete', content: [] }).ok).toBe(true);
    expect(v.result('tools/call', { resultType: 'complete', inputRequests: {} }).ok).toBe(false);
  });

  it('of task-augmented requests may be CreateTaskResult in 2025-11-25', () => {
    const created = {
      task: { taskId: 't', status: 'working', createdAt: 'x', lastUpdatedAt: 'x', ttl: null },
    };
    expect(getValidators('2025-11-25').result('tools/call', created).ok).toBe(true);
    expect(getValidators('2025-11-25').result('sampling/createMessage', created).ok).toBe(true);
    expect(getValidators('2025-06-18').result('tools/call', created).ok).toBe(false);
  });
});

describe('requests', () => {
  const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

  it('need params._meta with protocolVersion and clientCapabilities in 2026-07-28', () => {
    expect(accepting((revision) => getValidators(revision).clientRequest(listTools).ok)).toEqual(legacy);
    const v = getValidators('2026-07-28');
    expect(v.clientRequest(listTools)).toEqual({
      ok: false,
      issues: [
        { path: '$.params', code: 'missing_key', message: 'missing required key "params" (PaginatedRequestParams)' },
      ],
    });
    expect(codes(v.clientRequest({ ...listTools, params: {} }))).toEqual(['missing_key']);
    expect(v.clientRequest({ ...listTools, params: { _meta: meta2026 } }).ok).toBe(true);
  });

  it('of the removed lifecycle and subscription methods are unknown in 2026-07-28', () => {
    const v = getValidators('2026-07-28');
    const removed = ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'];
    for (const method of removed) {
      const message = { jsonrpc: '2.0', id: 1, method, params: { _meta: meta2026 } };
      expect(codes(v.clientRequest(message))[0], method).toBe('unknown_method');
      expect(codes(getValidators('2025-11-25').clientRequest(message)), method).not.toContain('unknown_method');
    }
    for (const method of ['notifications/initialized', 'notifications/roots/list_changed']) {
      expect(codes(v.clientNotification({ jsonrpc: '2.0', method }))).toEqual(['unknown_method']);
      expect(getValidators('2025-11-25').clientNotification({ jsonrpc: '2.0', method }).ok).toBe(true);
    }
  });

  it('from server to client do not exist in 2026-07-28', () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect(accepting((revision) => getValidators(revision).serverRequest(ping).ok)).toEqual(legacy);
    expect(codes(getValidators('2026-07-28').serverRequest(ping))).toEqual(['unknown_method']);
  });

  it('server/discover and subscriptions/listen exist only in 2026-07-28', () => {
    const discover = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta2026 } };
    const listen = {
      jsonrpc: '2.0',
      id: 2,
      method: 'subscriptions/listen',
      params: { _meta: meta2026, notifications: { toolsListChanged: true } },
    };
    expect(accepting((revision) => getValidators(revision).clientRequest(discover).ok)).toEqual(['2026-07-28']);
    expect(accepting((revision) => getValidators(revision).clientRequest(listen).ok)).toEqual(['2026-07-28']);
  });

  it('of tasks exist only in 2025-11-25', () => {
    const get = { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: 't' } };
    expect(accepting((revision) => getValidators(revision).clientRequest(get).ok)).toEqual(['2025-11-25']);
    expect(accepting((revision) => getValidators(revision).serverRequest(get).ok)).toEqual(['2025-11-25']);
  });

  it('use string or integer ids, never fractions or null', () => {
    for (const revision of legacy) {
      const v = getValidators(revision);
      expect(v.clientRequest({ jsonrpc: '2.0', id: 'a', method: 'ping' }).ok).toBe(true);
      expect(v.clientRequest({ jsonrpc: '2.0', id: 1.5, method: 'ping' }).ok).toBe(false);
      expect(v.clientRequest({ jsonrpc: '2.0', id: null, method: 'ping' }).ok).toBe(false);
      expect(v.clientRequest({ jsonrpc: '2.1', id: 1, method: 'ping' }).ok).toBe(false);
    }
  });
});

describe('content', () => {
  it('audio exists from 2025-03-26', () => {
    const audio = { type: 'audio', data: 'AAA=', mimeType: 'audio/wav' };
    expect(accepting((revision) => getValidators(revision).contentBlock(audio).ok)).toEqual(SCHEMA_REVISIONS.slice(1));
  });

  it('resource_link exists from 2025-06-18', () => {
    const link = { type: 'resource_link', uri: 'file:///a', name: 'a' };
    expect(accepting((revision) => getValidators(revision).contentBlock(link).ok)).toEqual(SCHEMA_REVISIONS.slice(2));
  });

  it('structuredContent is checked from 2025-06-18 (an object) and any JSON value in 2026-07-28', () => {
    const result = (structuredContent: unknown, revision: SchemaRevision) => ({
      content: [],
      structuredContent,
      ...(revision === '2026-07-28' ? { resultType: 'complete' } : {}),
    });
    const arrayAccepted = accepting((revision) => getValidators(revision).callToolResult(result([1, 2], revision)).ok);
    // Before 2025-06-18 the key is unknown (and allowed); 2025-06-18/2025-11-25 require an object.
    expect(arrayAccepted).toEqual(['2024-11-05', '2025-03-26', '2026-07-28']);
  });
});

describe('features', () => {
  it('elicitation exists from 2025-06-18; URL mode from 2025-11-25', () => {
    const form = {
      jsonrpc: '2.0',
      id: 1,
      method: 'elicitation/create',
      params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
    };
    const url = {
      jsonrpc: '2.0',
      id: 2,
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' },
    };
    expect(accepting((revision) => getValidators(revision).serverRequest(form).ok)).toEqual([
      '2025-06-18',
      '2025-11-25',
    ]);
    expect(accepting((revision) => getValidators(revision).serverRequest(url).ok)).toEqual(['2025-11-25']);
    // 2026-07-28: elicitation is an input request ({method, params}), URL mode without elicitationId.
    expect(getValidators('2026-07-28').byType('InputRequest', { method: url.method, params: url.params }).ok).toBe(
      true,
    );
    expect(getValidators('2026-07-28').byType('ElicitRequestURLParams', { mode: 'url', message: 'm' }).ok).toBe(false);
  });

  it('icons are checked from 2025-11-25', () => {
    const tool = { name: 't', inputSchema: { type: 'object' }, icons: 'icon.png' };
    expect(accepting((revision) => getValidators(revision).tool(tool).ok)).toEqual([
      '2024-11-05',
      '2025-03-26',
      '2025-06-18',
    ]);
    const withIcons = { ...tool, icons: [{ src: 'https://example.com/i.png', theme: 'light' }] };
    expect(accepting((revision) => getValidators(revision).tool(withIcons).ok)).toEqual(SCHEMA_REVISIONS);
  });

  it('sampling tools are checked from 2025-11-25', () => {
    const request = {
      jsonrpc: '2.0',
      id: 1,
      method: 'sampling/createMessage',
      params: { messages: [], maxTokens: 10, tools: [{ name: 'x' }], toolChoice: { mode: 'auto' } },
    };
    expect(accepting((revision) => getValidators(revision).serverRequest(request).ok)).toEqual([
      '2024-11-05',
      '2025-03-26',
      '2025-06-18',
    ]);
    const valid = {
      ...request,
      params: { ...request.params, tools: [{ name: 'x', inputSchema: { type: 'object' } }] },
    };
    expect(getValidators('2025-11-25').serverRequest(valid).ok).toBe(true);
  });

  it('batches exist only in 2025-03-26', () => {
    const batch = [{ jsonrpc: '2.0', id: 1, method: 'ping' }];
    expect(accepting((revision) => getValidators(revision).batches)).toEqual(['2025-03-26']);
    expect(accepting((revision) => getValidators(revision).byType('JSONRPCMessage', batch).ok)).toEqual(['2025-03-26']);
    expect(codes(getValidators('2025-06-18').byType('JSONRPCBatchRequest', batch))).toEqual(['unknown_type']);
    // The message validators take one message: a batch is split by the caller.
    expect(getValidators('2025-03-26').clientRequest(batch).ok).toBe(false);
  });

  it('error responses may omit the id from 2025-11-25', () => {
    const error = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } };
    expect(accepting((revision) => getValidators(revision).errorResponse(error).ok)).toEqual([
      '2025-11-25',
      '2026-07-28',
    ]);
  });

  it('cancellation may omit requestId only in 2025-11-25', () => {
    const cancelled = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { reason: 'bye' } };
    expect(accepting((revision) => getValidators(revision).clientNotification(cancelled).ok)).toEqual(['2025-11-25']);
  });

  it('initialize validators exist up to 2025-11-25; discover, _meta and input_required from 2026-07-28', () => {
    expect(codes(getValidators('2026-07-28').initializeParams({}))).toEqual(['unknown_type']);
    expect(codes(getValidators('2026-07-28').initializeResult({}))).toEqual(['unknown_type']);
    for (const revision of legacy) {
      const v = getValidators(revision);
      expect(codes(v.discoverResult({})), revision).toEqual(['unknown_type']);
      expect(codes(v.requestMeta({})), revision).toEqual(['unknown_type']);
      expect(codes(v.inputRequiredResult({})), revision).toEqual(['unknown_type']);
      expect(codes(v.initializeParams({})), revision).not.toContain('unknown_type');
    }
  });
});
