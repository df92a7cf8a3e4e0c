import { describe, expect, it } from 'vitest';
import {
  buildRequestMeta,
  isReservedMetaPrefix,
  MetaKeys,
  parseMetaKey,
  readRequestEnvelope,
  readServerInfo,
  readSubscriptionId,
  validateMetaKey,
  withServerInfo,
} from './meta.js';

describe('_meta key grammar', () => {
  it.each([
    ['progressToken', undefined, 'progressToken'],
    ['traceparent', undefined, 'traceparent'],
    ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol', 'protocolVersion'],
    ['io.modelcontextprotocol/related-task', 'io.modelcontextprotocol', 'related-task'],
    ['com.example/trace_id.v2', 'com.example', 'trace_id.v2'],
    ['a1-b.c2/x', 'a1-b.c2', 'x'],
    ['example/', 'example', ''],
    ['x', undefined, 'x'],
    ['', undefined, ''],
  ])('accepts %j', (key, prefix, name) => {
    expect(parseMetaKey(key)).toMatchObject({ ok: true, prefix, name });
  });

  it.each([
    ['a name starting with a hyphen', '-bad', /name/],
    ['a name ending with a dot', 'bad.', /name/],
    ['a name with a space', 'has space', /name/],
    ['a name with a slash', 'a/b/c', /label|name/],
    ['an empty prefix', '/name', /prefix/],
    ['a label starting with a digit', '1abc.com/x', /label "1abc"/],
    ['a label ending with a hyphen', 'abc-.com/x', /label "abc-"/],
    ['an empty label', 'com..example/x', /label ""/],
    ['a label with an underscore', 'my_co.com/x', /label "my_co"/],
    ['a non-ASCII name', 'café', /name/],
  ])('rejects %s', (_label, key, reason) => {
    const parsed = parseMetaKey(key);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('recognizes reserved prefixes by their second label', () => {
    expect(isReservedMetaPrefix('io.modelcontextprotocol')).toBe(true);
    expect(isReservedMetaPrefix('dev.mcp')).toBe(true);
    expect(isReservedMetaPrefix('dev.mcp.tools')).toBe(true);
    expect(isReservedMetaPrefix('org.MCP')).toBe(true);
    expect(isReservedMetaPrefix('mcp.dev')).toBe(false);
    expect(isReservedMetaPrefix('modelcontextprotocol')).toBe(false);
    expect(isReservedMetaPrefix('com.example')).toBe(false);
    expect(parseMetaKey('io.modelcontextprotocol/protocolVersion')).toMatchObject({ reserved: true });
    expect(parseMetaKey('progressToken')).toMatchObject({ reserved: false });
  });

  it('refuses reserved prefixes for application keys', () => {
    expect(validateMetaKey('com.example/requestTag')).toEqual({ ok: true });
    expect(validateMetaKey('io.modelcontextprotocol/custom')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('reserved'),
    });
    expect(validateMetaKey('dev.mcp/x')).toMatchObject({ ok: false });
    expect(validateMetaKey('-x')).toMatchObject({ ok: false });
  });

  it('names every spec key correctly and each follows the grammar', () => {
    for (const key of Object.values(MetaKeys)) expect(parseMetaKey(key).ok).toBe(true);
    expect(MetaKeys.ProtocolVersion).toBe('io.modelcontextprotocol/protocolVersion');
    expect(MetaKeys.ClientCapabilities).toBe('io.modelcontextprotocol/clientCapabilities');
    expect(MetaKeys.RelatedTask).toBe('io.modelcontextprotocol/related-task');
  });
});

describe('request envelope', () => {
  const clientInfo = { name: 'c', version: '1' };

  it('builds the envelope with optional keys only when given', () => {
    expect(buildRequestMeta({ protocolVersion: '2026-07-28', clientCapabilities: {} })).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    });
    expect(
      buildRequestMeta({
        protocolVersion: '2026-07-28',
        clientCapabilities: { roots: {} },
        clientInfo,
        logLevel: 'info',
        progressToken: 7,
        extra: { traceparent: '00-abc-def-01', 'io.modelcontextprotocol/protocolVersion': 'ignored' },
      }),
    ).toEqual({
      traceparent: '00-abc-def-01',
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { roots: {} },
      'io.modelcontextprotocol/clientInfo': clientInfo,
      'io.modelcontextprotocol/logLevel': 'info',
      progressToken: 7,
    });
  });

  it('reads back what it builds', () => {
    const meta = buildRequestMeta({
      protocolVersion: '2026-07-28',
      clientCapabilities: { sampling: {} },
      clientInfo,
      logLevel: 'debug',
      progressToken: 'p1',
    });
    expect(readRequestEnvelope({ name: 'x', _meta: meta })).toEqual({
      ok: true,
      envelope: {
        protocolVersion: '2026-07-28',
        clientCapabilities: { sampling: {} },
        clientInfo,
        logLevel: 'debug',
        progressToken: 'p1',
        meta,
      },
    });
  });

  it.each([
    ['no params', undefined, [MetaKeys.ProtocolVersion, MetaKeys.ClientCapabilities], []],
    ['params without _meta', { name: 'x' }, [MetaKeys.ProtocolVersion, MetaKeys.ClientCapabilities], []],
    ['a non-object _meta', { _meta: 'x' }, [MetaKeys.ProtocolVersion, MetaKeys.ClientCapabilities], ['_meta']],
    ['an empty _meta', { _meta: {} }, [MetaKeys.ProtocolVersion, MetaKeys.ClientCapabilities], []],
    ['no protocol version', { _meta: { [MetaKeys.ClientCapabilities]: {} } }, [MetaKeys.ProtocolVersion], []],
    [
      'no client capabilities',
      { _meta: { [MetaKeys.ProtocolVersion]: '2026-07-28' } },
      [MetaKeys.ClientCapabilities],
      [],
    ],
    [
      'a numeric protocol version and array capabilities',
      { _meta: { [MetaKeys.ProtocolVersion]: 20260728, [MetaKeys.ClientCapabilities]: [] } },
      [],
      [MetaKeys.ProtocolVersion, MetaKeys.ClientCapabilities],
    ],
    [
      'bad optional keys',
      {
        _meta: {
          [MetaKeys.ProtocolVersion]: '2026-07-28',
          [MetaKeys.ClientCapabilities]: {},
          [MetaKeys.ClientInfo]: { name: 'c' },
          [MetaKeys.LogLevel]: 'verbose',
          progressToken: 1.5,
        },
      },
      [],
      [MetaKeys.ClientInfo, MetaKeys.LogLevel, MetaKeys.ProgressToken],
    ],
  ])('reports %s', (_label, params, missing, invalid) => {
    expect(readRequestEnvelope(params)).toEqual({ ok: false, missing, invalid });
  });

  it('rejects an empty protocol version string', () => {
    const read = readRequestEnvelope({ _meta: { [MetaKeys.ProtocolVersion]: '', [MetaKeys.ClientCapabilities]: {} } });
    expect(read).toEqual({ ok: false, missing: [], invalid: [MetaKeys.ProtocolVersion] });
  });
});

describe('result and notification _meta', () => {
  const serverInfo = { name: 'weather', version: '1.2.0' };

  it('adds serverInfo without touching the input', () => {
    const result = { resultType: 'complete', tools: [], _meta: { 'com.example/x': 1 } };
    const stamped = withServerInfo(result, serverInfo);
    expect(stamped).toEqual({
      resultType: 'complete',
      tools: [],
      _meta: { 'com.example/x': 1, 'io.modelcontextprotocol/serverInfo': serverInfo },
    });
    expect(result._meta).toEqual({ 'com.example/x': 1 });
    expect(readServerInfo(stamped)).toEqual(serverInfo);
  });

  it('reads serverInfo only when well-formed', () => {
    expect(readServerInfo({})).toBeUndefined();
    expect(readServerInfo({ _meta: { [MetaKeys.ServerInfo]: { name: 'x' } } })).toBeUndefined();
    expect(readServerInfo(null)).toBeUndefined();
  });

  it('reads the subscription id verbatim', () => {
    expect(readSubscriptionId({ _meta: { [MetaKeys.SubscriptionId]: 7 } })).toBe(7);
    expect(readSubscriptionId({ _meta: { [MetaKeys.SubscriptionId]: 'listen-1' } })).toBe('listen-1');
    expect(readSubscriptionId({ _meta: {} })).toBeUndefined();
    expect(readSubscriptionId(undefined)).toBeUndefined();
  });
});
