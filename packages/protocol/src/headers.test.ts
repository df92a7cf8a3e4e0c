import { describe, expect, it } from 'vitest';
import {
  compareRequestHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  headersForToolCall,
  type McpHeaderParam,
  standardHeadersFor,
  validateMcpHeaderDeclarations,
} from './headers.js';
import { buildRequestMeta } from './meta.js';

describe('encodeHeaderValue', () => {
  it.each([
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])('encodes the spec example %j', (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
  });

  it.each([
    'us-west1',
    'get_weather',
    'file:///project/README.md',
    'a b\tc',
    '=?base64?no-suffix',
    'prefix=?base64?x?=',
    '',
  ])('keeps the safe value %j plain', (value) => {
    expect(encodeHeaderValue(value)).toBe(value);
  });

  it.each([
    ['leading space', ' x'],
    ['trailing tab', 'x\t'],
    ['DEL', 'a\x7Fb'],
    ['NUL', 'a\x00b'],
    ['Latin-1', 'café'],
    ['emoji', 'rocket 🚀'],
    ['CR', 'a\rb'],
  ])('encodes a value with %s', (_label, value) => {
    const encoded = encodeHeaderValue(value);
    expect(encoded.startsWith('=?base64?')).toBe(true);
    expect(decodeHeaderValue(encoded)).toEqual({ ok: true, value });
  });

  it('base64-encodes a short plain value that starts and ends like the sentinel', () => {
    expect(encodeHeaderValue('=?base64?=')).not.toBe('=?base64?=');
    expect(decodeHeaderValue(encodeHeaderValue('=?base64?='))).toEqual({ ok: true, value: '=?base64?=' });
  });

  it('round-trips every Base64 padding length', () => {
    for (const value of ['é', 'éa', 'éab', 'éabc', ' ', '  ', '世界世界世']) {
      expect(decodeHeaderValue(encodeHeaderValue(value))).toEqual({ ok: true, value });
    }
  });
});

describe('decodeHeaderValue', () => {
  it('decodes the spec examples', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toEqual({ ok: true, value: 'Hello, 世界' });
    expect(decodeHeaderValue('=?base64?IHBhZGRlZCA=?=')).toEqual({ ok: true, value: ' padded ' });
    expect(decodeHeaderValue('=?base64?bGluZTEKbGluZTI=?=')).toEqual({ ok: true, value: 'line1\nline2' });
    expect(decodeHeaderValue('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=')).toEqual({
      ok: true,
      value: '=?base64?literal?=',
    });
  });

  it('returns plain values unchanged', () => {
    expect(decodeHeaderValue('us-west1')).toEqual({ ok: true, value: 'us-west1' });
    expect(decodeHeaderValue('=?BASE64?SGk=?=')).toEqual({ ok: true, value: '=?BASE64?SGk=?=' });
  });

  it.each([
    ['unused bits set', '=?base64?SGVsbG9=?='],
    ['missing padding', '=?base64?SGVsbG8?='],
    ['too much padding', '=?base64?SGVsbA===?='],
    ['padding in the middle', '=?base64?SG=sbG8=?='],
    ['URL-safe alphabet', '=?base64?-_-_?='],
    ['whitespace inside', '=?base64?SGVs bG8=?='],
    ['non-ASCII inside', '=?base64?SGVsbé8=?='],
  ])('rejects non-canonical Base64: %s', (_label, raw) => {
    const decoded = decodeHeaderValue(raw);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason).toMatch(/Base64/);
  });

  it.each([
    ['a lone continuation byte', '=?base64?gA==?='],
    ['a truncated sequence', '=?base64?4pw=?='],
    ['an overlong encoding', '=?base64?wK8=?='],
    ['an encoded surrogate', '=?base64?7aCA?='],
  ])('rejects invalid UTF-8: %s', (_label, raw) => {
    const decoded = decodeHeaderValue(raw);
    expect(decoded).toMatchObject({ ok: false });
    if (!decoded.ok) expect(decoded.reason).toMatch(/UTF-8/);
  });

  it.each([
    ['a newline', 'a\nb'],
    ['a NUL', 'a\x00'],
    ['obs-text', 'caf\xE9'],
    ['DEL', '\x7F'],
  ])('rejects a plain value with %s', (_label, raw) => {
    const decoded = decodeHeaderValue(raw);
    expect(decoded).toMatchObject({ ok: false });
    if (!decoded.ok) expect(decoded.reason).toMatch(/invalid characters/);
  });

  it('keeps a byte-order mark that was encoded', () => {
    expect(decodeHeaderValue(encodeHeaderValue('\uFEFFx'))).toEqual({ ok: true, value: '\uFEFFx' });
  });
});

describe('validateMcpHeaderDeclarations', () => {
  const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: 'object',
    properties,
    ...extra,
  });

  it('accepts string, integer and boolean properties, nested through properties', () => {
    const result = validateMcpHeaderDeclarations(
      schema({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        retries: { type: 'integer', 'x-mcp-header': 'Retries' },
        dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
        target: {
          type: 'object',
          properties: { zone: { type: 'string', 'x-mcp-header': "Zone_1!#$%&'*+.^`|~" } },
        },
        plain: { type: 'string' },
      }),
    );
    expect(result).toEqual({
      ok: true,
      params: [
        { name: 'Region', path: ['region'], type: 'string' },
        { name: 'Retries', path: ['retries'], type: 'integer' },
        { name: 'Dry-Run', path: ['dryRun'], type: 'boolean' },
        { name: "Zone_1!#$%&'*+.^`|~", path: ['target', 'zone'], type: 'string' },
      ],
    });
  });

  it('accepts a schema without declarations', () => {
    expect(validateMcpHeaderDeclarations(schema({ a: { type: 'string' } }))).toEqual({ ok: true, params: [] });
    expect(validateMcpHeaderDeclarations({ type: 'object' })).toEqual({ ok: true, params: [] });
  });

  it('ignores x-mcp-header used as a property name or inside data keywords', () => {
    const result = validateMcpHeaderDeclarations(
      schema(
        { 'x-mcp-header': { type: 'string' } },
        { examples: [{ 'x-mcp-header': 'NotASchema' }], default: { 'x-mcp-header': 'Nope' } },
      ),
    );
    expect(result).toEqual({ ok: true, params: [] });
  });

  it.each([
    ['an empty name', { a: { type: 'string', 'x-mcp-header': '' } }, /non-empty/],
    ['a non-string name', { a: { type: 'string', 'x-mcp-header': 42 } }, /non-empty string/],
    ['a space', { a: { type: 'string', 'x-mcp-header': 'My Header' } }, /RFC 9110 token/],
    ['a colon', { a: { type: 'string', 'x-mcp-header': 'A:B' } }, /RFC 9110 token/],
    ['a CR LF', { a: { type: 'string', 'x-mcp-header': 'A\r\nB' } }, /RFC 9110 token/],
    ['a tab (CTL)', { a: { type: 'string', 'x-mcp-header': 'A\tB' } }, /RFC 9110 token/],
    ['a DEL (CTL)', { a: { type: 'string', 'x-mcp-header': 'A\x7F' } }, /RFC 9110 token/],
    ['a non-ASCII letter', { a: { type: 'string', 'x-mcp-header': 'Régión' } }, /RFC 9110 token/],
    [
      'a case-insensitive duplicate',
      { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } },
      /repeats/,
    ],
    ['type number', { a: { type: 'number', 'x-mcp-header': 'A' } }, /number is not allowed/],
    ['type object', { a: { type: 'object', 'x-mcp-header': 'A' } }, /"type"/],
    ['type array', { a: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'A' } }, /"type"/],
    ['no type', { a: { 'x-mcp-header': 'A' } }, /found null/],
    ['a type list', { a: { type: ['string', 'null'], 'x-mcp-header': 'A' } }, /"type"/],
    ['under items', { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } }, /not reachable/],
    [
      'under prefixItems',
      { a: { type: 'array', prefixItems: [{ type: 'string', 'x-mcp-header': 'A' }] } },
      /not reachable/,
    ],
    [
      'under additionalProperties',
      { a: { type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'A' } } },
      /not reachable/,
    ],
    [
      'under patternProperties',
      { a: { type: 'object', patternProperties: { '^x': { type: 'string', 'x-mcp-header': 'A' } } } },
      /not reachable/,
    ],
    ['under oneOf', { a: { oneOf: [{ type: 'string', 'x-mcp-header': 'A' }] } }, /not reachable/],
    ['under anyOf', { a: { anyOf: [{ type: 'string', 'x-mcp-header': 'A' }] } }, /not reachable/],
    ['under allOf', { a: { allOf: [{ type: 'string', 'x-mcp-header': 'A' }] } }, /not reachable/],
    ['under not', { a: { not: { type: 'string', 'x-mcp-header': 'A' } } }, /not reachable/],
    ['under if', { a: { if: { type: 'string', 'x-mcp-header': 'A' } } }, /not reachable/],
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a thenable
    ['under then', { a: { then: { type: 'string', 'x-mcp-header': 'A' } } }, /not reachable/],
    ['under else', { a: { else: { type: 'string', 'x-mcp-header': 'A' } } }, /not reachable/],
    [
      'a property reached through oneOf',
      { a: { oneOf: [{ type: 'object', properties: { b: { type: 'string', 'x-mcp-header': 'B' } } }] } },
      /not reachable/,
    ],
  ])('rejects %s', (_label, properties, reason) => {
    const result = validateMcpHeaderDeclarations(schema(properties));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('rejects a declaration reached through $ref', () => {
    const result = validateMcpHeaderDeclarations({
      type: 'object',
      properties: { region: { $ref: '#/$defs/region' } },
      $defs: { region: { type: 'string', 'x-mcp-header': 'Region' } },
    });
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/not reachable/) });
  });

  it('rejects a declaration on the root', () => {
    const result = validateMcpHeaderDeclarations({ type: 'object', 'x-mcp-header': 'Root' });
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/schema root/) });
  });

  it('rejects a non-object schema and a schema nested beyond the depth bound', () => {
    expect(validateMcpHeaderDeclarations(null).ok).toBe(false);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 200; level++) deep = { type: 'object', properties: { n: deep } };
    const result = validateMcpHeaderDeclarations(deep);
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/deeper/) });
  });
});

describe('headersForToolCall', () => {
  const params: McpHeaderParam[] = [
    { name: 'Region', path: ['region'], type: 'string' },
    { name: 'Retries', path: ['retries'], type: 'integer' },
    { name: 'Dry-Run', path: ['dryRun'], type: 'boolean' },
    { name: 'Zone', path: ['target', 'zone'], type: 'string' },
  ];

  it('converts and encodes each present value', () => {
    expect(headersForToolCall(params, { region: 'Zürich', retries: 3, dryRun: false, target: { zone: 'b' } })).toEqual({
      'Mcp-Param-Region': '=?base64?WsO8cmljaA==?=',
      'Mcp-Param-Retries': '3',
      'Mcp-Param-Dry-Run': 'false',
      'Mcp-Param-Zone': 'b',
    });
  });

  it('omits absent and null values, and missing intermediate objects', () => {
    expect(headersForToolCall(params, { region: null, target: null })).toEqual({});
    expect(headersForToolCall(params, undefined)).toEqual({});
  });

  it('writes large integers in plain decimal', () => {
    expect(headersForToolCall([{ name: 'N', path: ['n'], type: 'integer' }], { n: 1e21 })).toEqual({
      'Mcp-Param-N': '1000000000000000000000',
    });
    expect(headersForToolCall([{ name: 'N', path: ['n'], type: 'integer' }], { n: -42 })).toEqual({
      'Mcp-Param-N': '-42',
    });
  });
});

describe('standardHeadersFor', () => {
  const _meta = buildRequestMeta({ protocolVersion: '2026-07-28', clientCapabilities: {} });

  it('mirrors version, method and the name of tools/call, prompts/get and resources/read', () => {
    expect(standardHeadersFor({ method: 'tools/call', params: { name: 'get_weather', _meta } })).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'get_weather',
    });
    expect(standardHeadersFor({ method: 'prompts/get', params: { name: 'résumé', _meta } })['Mcp-Name']).toBe(
      '=?base64?csOpc3Vtw6k=?=',
    );
    expect(standardHeadersFor({ method: 'resources/read', params: { uri: 'file:///a.txt', _meta } })).toMatchObject({
      'Mcp-Name': 'file:///a.txt',
    });
    expect(standardHeadersFor({ method: 'tasks/get', params: { taskId: 't-1', _meta } })['Mcp-Name']).toBe('t-1');
  });

  it('has no Mcp-Name for other methods and takes the version from the argument when _meta has none', () => {
    expect(standardHeadersFor({ method: 'tools/list', params: { _meta } })).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/list',
    });
    expect(standardHeadersFor({ method: 'notifications/cancelled', params: { requestId: 1 } }, '2026-07-28')).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'notifications/cancelled',
    });
  });
});

describe('compareRequestHeaders', () => {
  const _meta = buildRequestMeta({ protocolVersion: '2026-07-28', clientCapabilities: {} });
  const decl: McpHeaderParam[] = [
    { name: 'Region', path: ['region'], type: 'string' },
    { name: 'Count', path: ['count'], type: 'integer' },
    { name: 'Verbose', path: ['verbose'], type: 'boolean' },
  ];
  const call = (args: Record<string, unknown>, name = 'deploy') => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args, _meta },
  });
  const base = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'deploy' };

  it('accepts matching headers, from a record or a Fetch Headers object', () => {
    const body = call({ region: 'us-west1', count: 42, verbose: true });
    const headers = { ...base, 'Mcp-Param-Region': 'us-west1', 'Mcp-Param-Count': '42', 'Mcp-Param-Verbose': 'true' };
    expect(compareRequestHeaders(headers, body, decl)).toEqual({ ok: true });
    expect(compareRequestHeaders(new Headers(headers), body, decl)).toEqual({ ok: true });
  });

  it('looks header names up case-insensitively', () => {
    const headers = { 'mcp-protocol-version': '2026-07-28', 'MCP-METHOD': 'tools/call', 'mcp-name': 'deploy' };
    expect(compareRequestHeaders(headers, call({}))).toEqual({ ok: true });
  });

  it('compares integers numerically', () => {
    const body = call({ count: 42 });
    expect(compareRequestHeaders({ ...base, 'Mcp-Param-Count': '42.0' }, body, decl)).toEqual({ ok: true });
    expect(compareRequestHeaders({ ...base, 'Mcp-Param-Count': '4.2e1' }, body, decl)).toEqual({ ok: true });
    expect(compareRequestHeaders({ ...base, 'Mcp-Param-Count': '43' }, body, decl)).toMatchObject({ ok: false });
    expect(compareRequestHeaders({ ...base, 'Mcp-Param-Count': '0x2a' }, body, decl)).toMatchObject({ ok: false });
    expect(compareRequestHeaders({ ...base, 'Mcp-Param-Count': ' 42' }, body, decl)).toMatchObject({ ok: false });
  });

  it('decodes Base64 before comparing', () => {
    const body = call({ region: 'Zürich' }, 'déployer');
    const headers = {
      ...base,
      'Mcp-Name': encodeHeaderValue('déployer'),
      'Mcp-Param-Region': encodeHeaderValue('Zürich'),
    };
    expect(compareRequestHeaders(headers, body, decl)).toEqual({ ok: true });
  });

  it('does not expect headers for absent or null values and ignores unknown Mcp-Param headers', () => {
    const body = call({ region: null });
    expect(compareRequestHeaders({ ...base, 'Mcp-Param-Other': 'x' }, body, decl)).toEqual({ ok: true });
  });

  it.each([
    [
      'MCP-Protocol-Version is missing',
      { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'deploy' },
      /MCP-Protocol-Version is missing/,
    ],
    ['Mcp-Method is missing', { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Name': 'deploy' }, /Mcp-Method is missing/],
    [
      'Mcp-Name is missing',
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call' },
      /Mcp-Name is missing/,
    ],
    [
      'the version differs',
      { ...base, 'MCP-Protocol-Version': '2025-11-25' },
      /MCP-Protocol-Version header value '2025-11-25'/,
    ],
    ['the method differs', { ...base, 'Mcp-Method': 'tools/list' }, /Mcp-Method header value 'tools\/list'/],
    [
      'the name differs',
      { ...base, 'Mcp-Name': 'foo' },
      /Mcp-Name header value 'foo' does not match body value 'deploy'/,
    ],
    ['the name is case-different', { ...base, 'Mcp-Name': 'Deploy' }, /does not match/],
    ['the name has invalid characters', { ...base, 'Mcp-Name': 'dep\u00ffloy' }, /invalid characters/],
    ['the name is non-canonical Base64', { ...base, 'Mcp-Name': '=?base64?ZGVwbG95?' }, /does not match/],
    ['the name has bad Base64', { ...base, 'Mcp-Name': '=?base64?ZGVwbG9=?=' }, /Base64/],
  ])('rejects when %s', (_label, headers, detail) => {
    const result = compareRequestHeaders(headers, call({}));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.detail).toMatch(detail);
  });

  it.each([
    ['a body value has no header', { region: 'us' }, {}, /Mcp-Param-Region is missing/],
    ['a header has no body value', {}, { 'Mcp-Param-Region': 'us' }, /no matching value in the body/],
    ['a string differs', { region: 'us' }, { 'Mcp-Param-Region': 'eu' }, /does not match body value 'us'/],
    ['a boolean differs', { verbose: true }, { 'Mcp-Param-Verbose': 'false' }, /does not match/],
    ['a boolean is spelled differently', { verbose: true }, { 'Mcp-Param-Verbose': 'True' }, /does not match/],
    ['a param has invalid characters', { region: 'us' }, { 'Mcp-Param-Region': 'u\ns' }, /invalid characters/],
    ['a param has invalid UTF-8', { region: 'us' }, { 'Mcp-Param-Region': '=?base64?gA==?=' }, /UTF-8/],
    [
      'the body value is an object',
      { region: { a: 1 } },
      { 'Mcp-Param-Region': 'x' },
      /not a string, number or boolean/,
    ],
  ])('rejects when %s', (_label, args, paramHeaders, detail) => {
    const result = compareRequestHeaders({ ...base, ...paramHeaders }, call(args), decl);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.detail).toMatch(detail);
  });

  it('rejects a duplicated header', () => {
    const result = compareRequestHeaders({ ...base, 'mcp-name': ['deploy', 'deploy'] }, call({}));
    expect(result).toMatchObject({ ok: false, header: 'Mcp-Name' });
    const twice = compareRequestHeaders({ ...base, 'mcp-method': 'tools/call' }, call({}));
    expect(twice).toMatchObject({ ok: false, header: 'Mcp-Method' });
  });

  it('requires no headers on notifications but compares those present', () => {
    const notification = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    expect(compareRequestHeaders({}, notification)).toEqual({ ok: true });
    expect(compareRequestHeaders({ 'Mcp-Method': 'notifications/cancelled' }, notification)).toEqual({ ok: true });
    expect(compareRequestHeaders({ 'Mcp-Method': 'tools/call' }, notification)).toMatchObject({ ok: false });
  });

  it('does not require Mcp-Name when the body lacks the field (the params check reports that)', () => {
    const body = { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { _meta } };
    const headers = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'resources/read' };
    expect(compareRequestHeaders(headers, body)).toEqual({ ok: true });
  });
});

describe('header values and optional whitespace', () => {
  it('ignores spaces and tabs around a Headers value, as RFC 9110 says (workerd keeps them)', () => {
    const _meta = buildRequestMeta({ protocolVersion: '2026-07-28', clientCapabilities: {} });
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'deploy', arguments: {}, _meta } };
    const raw: Record<string, string> = {
      'mcp-protocol-version': '2026-07-28 ',
      'mcp-method': ' tools/call\t',
      'mcp-name': 'deploy  ',
    };
    const withGet = { get: (name: string) => raw[name.toLowerCase()] ?? null };
    expect(compareRequestHeaders(withGet, body)).toEqual({ ok: true });
    const other: Record<string, string> = { ...raw, 'mcp-name': ' other ' };
    expect(compareRequestHeaders({ get: (name: string) => other[name] ?? null }, body)).toMatchObject({ ok: false });
  });
});
