import { readFileSync } from 'node:fs';
import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  headerMismatchError,
  invalidEnvelopeError,
  invalidParamsError,
  isHeaderMismatchCode,
  isModernEraErrorCode,
  McpErrorCode,
  methodNotFoundError,
  missingRequiredClientCapabilityError,
  readRequiredClientCapabilities,
  readUnsupportedProtocolVersionData,
  resourceNotFoundError,
  unsupportedProtocolVersionError,
  urlElicitationRequiredError,
} from './errors.js';

const fixtures = new URL('../test/fixtures/spec/', import.meta.url);
const readJson = (path: string): unknown => JSON.parse(readFileSync(new URL(path, fixtures), 'utf8'));

const schema2026 = readJson('2026-07-28/schema.json') as object;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(schema2026, 'mcp-2026');
const validate = (definition: string, value: unknown): boolean => {
  const check = ajv.getSchema(`mcp-2026#/$defs/${definition}`);
  if (check === undefined) throw new Error(`no $defs/${definition}`);
  return check(value) as boolean;
};
const response = (error: JsonRpcError) => ({ jsonrpc: '2.0', id: 1, error: error.toJSON() });

describe('McpErrorCode', () => {
  it('has the codes of every revision', () => {
    expect(McpErrorCode).toMatchObject({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      ResourceNotFound: -32002,
      UrlElicitationRequired: -32042,
      HeaderMismatch: -32020,
      HeaderMismatchDraft: -32001,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
    });
  });

  it('reads HeaderMismatch as -32020 or the early-draft -32001', () => {
    expect(isHeaderMismatchCode(-32020)).toBe(true);
    expect(isHeaderMismatchCode(-32001)).toBe(true);
    expect(isHeaderMismatchCode(-32021)).toBe(false);
    expect(isHeaderMismatchCode('-32020')).toBe(false);
  });

  it('recognizes the codes only a modern server sends', () => {
    for (const code of [-32020, -32001, -32021, -32022]) expect(isModernEraErrorCode(code)).toBe(true);
    for (const code of [-32602, -32601, -32002, -32042, -32600]) expect(isModernEraErrorCode(code)).toBe(false);
  });
});

describe('error builders', () => {
  it('checks against a schema strict enough to fail', () => {
    const wrongCode = { jsonrpc: '2.0', id: 1, error: { code: -32021, message: 'x' } };
    expect(validate('HeaderMismatchError', wrongCode)).toBe(false);
    const badData = { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'x', data: { supported: 'x' } } };
    expect(validate('UnsupportedProtocolVersionError', badData)).toBe(false);
    const noData = { jsonrpc: '2.0', id: 1, error: { code: -32021, message: 'x' } };
    expect(validate('MissingRequiredClientCapabilityError', noData)).toBe(false);
  });

  it('builds HeaderMismatchError like the schema example', () => {
    const example = readJson('2026-07-28/examples/HeaderMismatchError/header-mismatch.json') as {
      error: { code: number; message: string };
    };
    const error = headerMismatchError("Mcp-Name header value 'foo' does not match body value 'bar'");
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.toJSON()).toEqual(example.error);
    expect(validate('HeaderMismatchError', response(error))).toBe(true);
  });

  it('builds MissingRequiredClientCapabilityError like the schema example', () => {
    const example = readJson(
      '2026-07-28/examples/MissingRequiredClientCapabilityError/missing-elicitation-capability.json',
    ) as { error: { code: number; data: unknown } };
    const error = missingRequiredClientCapabilityError({ elicitation: {} });
    expect(error.code).toBe(example.error.code);
    expect(error.data).toEqual(example.error.data);
    expect(error.message).toContain('elicitation');
    expect(validate('MissingRequiredClientCapabilityError', response(error))).toBe(true);
    const nested = missingRequiredClientCapabilityError({ elicitation: { url: {} }, sampling: { tools: {} } });
    expect(nested.message).toContain('elicitation.url, sampling.tools');
    expect(missingRequiredClientCapabilityError({ roots: {} }, 'custom').message).toBe('custom');
  });

  it('builds UnsupportedProtocolVersionError like the schema example', () => {
    const example = readJson('2026-07-28/examples/UnsupportedProtocolVersionError/unsupported-version.json') as {
      error: { code: number; data: unknown };
    };
    const error = unsupportedProtocolVersionError(['2026-07-28', '2025-11-25'], '1900-01-01');
    expect(error.code).toBe(example.error.code);
    expect(error.data).toEqual(example.error.data);
    expect(error.message).toBe("Unsupported protocol version '1900-01-01'; supported: 2026-07-28, 2025-11-25");
    expect(validate('UnsupportedProtocolVersionError', response(error))).toBe(true);
    expect(unsupportedProtocolVersionError(['2026-07-28'], undefined).data).toEqual({
      supported: ['2026-07-28'],
      requested: 'undefined',
    });
  });

  it('uses -32602 for a missing resource in 2026-07-28 and -32002 before', () => {
    const modern = resourceNotFoundError('file:///missing.txt', '2026-07-28');
    expect(modern.toJSON()).toEqual({
      code: -32602,
      message: 'Resource not found: file:///missing.txt',
      data: { uri: 'file:///missing.txt' },
    });
    expect(validate('InvalidParamsError', modern.toJSON())).toBe(true);
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      expect(resourceNotFoundError('file:///missing.txt', version).code).toBe(-32002);
    }
  });

  it('builds invalid-params and method-not-found errors the schema accepts', () => {
    const invalid = invalidParamsError('Unknown tool: invalid_tool_name');
    expect(invalid.toJSON()).toEqual(readJson('2026-07-28/examples/InvalidParamsError/unknown-tool.json'));
    expect(validate('InvalidParamsError', invalid.toJSON())).toBe(true);
    const notFound = methodNotFoundError('prompts/list', 'Server does not support the prompts capability');
    expect(notFound.toJSON()).toEqual({
      code: -32601,
      message: 'Method not found: prompts/list',
      data: { method: 'prompts/list', reason: 'Server does not support the prompts capability' },
    });
    expect(validate('MethodNotFoundError', notFound.toJSON())).toBe(true);
    expect(methodNotFoundError('x').data).toEqual({ method: 'x' });
  });

  it('builds the envelope error', () => {
    const error = invalidEnvelopeError(
      ['io.modelcontextprotocol/protocolVersion'],
      ['io.modelcontextprotocol/logLevel'],
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(
      'Invalid request _meta envelope: missing "io.modelcontextprotocol/protocolVersion"; invalid "io.modelcontextprotocol/logLevel"',
    );
    expect(error.data).toEqual({
      missing: ['io.modelcontextprotocol/protocolVersion'],
      invalid: ['io.modelcontextprotocol/logLevel'],
    });
  });

  it('builds the 2025-11-25 URL elicitation error against that schema', () => {
    const elicitations = [
      { mode: 'url' as const, elicitationId: 'e1', url: 'https://example.com/auth', message: 'Sign in' },
    ];
    const error = urlElicitationRequiredError(elicitations);
    expect(error.code).toBe(-32042);
    expect(error.data).toEqual({ elicitations });
    const ajv2025 = new Ajv2020({ strict: false });
    addFormats.default(ajv2025);
    ajv2025.addSchema(readJson('2025-11-25/schema.json') as object, 'mcp-2025');
    const check = ajv2025.getSchema('mcp-2025#/$defs/URLElicitationRequiredError');
    expect(check?.(response(error))).toBe(true);
  });
});

describe('reading received errors', () => {
  it('reads -32022 data', () => {
    const error = unsupportedProtocolVersionError(['2026-07-28'], '2030-01-01');
    expect(readUnsupportedProtocolVersionData(error)).toEqual({ supported: ['2026-07-28'], requested: '2030-01-01' });
    expect(readUnsupportedProtocolVersionData({ code: -32022, data: { supported: 'x' } })).toBeUndefined();
    expect(readUnsupportedProtocolVersionData({ code: -32602, data: { supported: [] } })).toBeUndefined();
  });

  it('reads -32021 data', () => {
    expect(readRequiredClientCapabilities(missingRequiredClientCapabilityError({ sampling: {} }))).toEqual({
      sampling: {},
    });
    expect(readRequiredClientCapabilities({ code: -32021, data: { requiredCapabilities: [] } })).toBeUndefined();
    expect(readRequiredClientCapabilities({ code: -32021 })).toBeUndefined();
  });
});
