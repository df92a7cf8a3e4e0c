import { isJsonObject } from '@mcpkit/jsonrpc-core';
import { decodeBase64Canonical, encodeBase64 } from './base64.js';
import { MetaKeys } from './meta.js';

// The Streamable HTTP header rules of 2026-07-28 (SEP-2243): standard headers mirroring the body, `x-mcp-header`
// declarations mirrored as `Mcp-Param-{Name}`, the `=?base64?…?=` value encoding, and the HeaderMismatch (-32020)
// conditions a server checks. Web APIs only.

/** Header names of the 2026-07-28 Streamable HTTP transport. Names are case-insensitive on the wire. */
export const McpHeaders = {
  /** The request's protocol version (`params._meta["io.modelcontextprotocol/protocolVersion"]`). 2025-06-18+. */
  ProtocolVersion: 'MCP-Protocol-Version',
  /** The request's `method`. 2026-07-28+. */
  Method: 'Mcp-Method',
  /** `params.name` (tools/call, prompts/get), `params.uri` (resources/read), `params.taskId` (tasks extension). */
  Name: 'Mcp-Name',
  /** Prefix of the headers declared with `x-mcp-header` in a tool's input schema. */
  ParamPrefix: 'Mcp-Param-',
} as const;

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const SENTINEL_MIN_LENGTH = SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function isVisibleOrBlank(code: number): boolean {
  return (code >= 0x20 && code <= 0x7e) || code === 0x09;
}

function hasOnlyHeaderSafeCharacters(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    if (!isVisibleOrBlank(value.charCodeAt(index))) return false;
  }
  return true;
}

function isBlank(code: number | undefined): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * Encodes a value for `Mcp-Name` or `Mcp-Param-*`: sent as is when every character is visible ASCII (0x21–0x7E),
 * space or tab and it has no leading or trailing whitespace; otherwise as `=?base64?{Base64 of the UTF-8 bytes}?=`.
 * A plain value that itself looks like the sentinel (starts `=?base64?`, ends `?=`) is always encoded. Lone surrogates
 * cannot be represented in UTF-8 and are replaced by U+FFFD.
 *
 * @example
 * ```ts
 * encodeHeaderValue('us-west1'); // 'us-west1'
 * encodeHeaderValue('Hello, 世界'); // '=?base64?SGVsbG8sIOS4lueVjA==?='
 * encodeHeaderValue(' padded '); // '=?base64?IHBhZGRlZCA=?='
 * ```
 */
export function encodeHeaderValue(value: string): string {
  const plain =
    hasOnlyHeaderSafeCharacters(value) &&
    !isBlank(value.charCodeAt(0)) &&
    !isBlank(value.charCodeAt(value.length - 1)) &&
    !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
  return plain ? value : `${SENTINEL_PREFIX}${encodeBase64(utf8Encoder.encode(value))}${SENTINEL_SUFFIX}`;
}

/** The result of {@link decodeHeaderValue}. */
export type HeaderValueDecode = { ok: true; value: string } | { ok: false; reason: string };

/**
 * Decodes an `Mcp-Name` / `Mcp-Param-*` header value. A `=?base64?…?=` value must hold canonical standard Base64 of
 * valid UTF-8; a plain value may hold only visible ASCII, space and tab. Anything else is "invalid characters",
 * which a server answers with HeaderMismatch (-32020).
 *
 * @example
 * ```ts
 * decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?='); // { ok: true, value: 'Hello, 世界' }
 * decodeHeaderValue('=?base64?SGVsbG8=?='); // { ok: true, value: 'Hello' }
 * decodeHeaderValue('=?base64?SGVsbG9=?='); // { ok: false, reason: 'not canonical Base64 …' }
 * ```
 */
export function decodeHeaderValue(raw: string): HeaderValueDecode {
  if (raw.length >= SENTINEL_MIN_LENGTH && raw.startsWith(SENTINEL_PREFIX) && raw.endsWith(SENTINEL_SUFFIX)) {
    const bytes = decodeBase64Canonical(raw.slice(SENTINEL_PREFIX.length, raw.length - SENTINEL_SUFFIX.length));
    if (bytes === undefined) {
      return { ok: false, reason: 'invalid characters: the =?base64?…?= value is not canonical standard Base64' };
    }
    try {
      return { ok: true, value: utf8Decoder.decode(bytes) };
    } catch {
      return { ok: false, reason: 'invalid characters: the =?base64?…?= value does not decode to valid UTF-8' };
    }
  }
  if (!hasOnlyHeaderSafeCharacters(raw)) {
    return {
      ok: false,
      reason: 'invalid characters: a plain value may contain only visible ASCII, space and tab (use =?base64?…?=)',
    };
  }
  return { ok: true, value: raw };
}

/** A primitive type an `x-mcp-header` property may have. `number` is not allowed. */
export type McpHeaderParamType = 'string' | 'integer' | 'boolean';

/** One `x-mcp-header` declaration of a tool's input schema. */
export interface McpHeaderParam {
  /** The declared name: the header is `Mcp-Param-{name}`. */
  name: string;
  /** Property names from the root of `arguments` to the value. */
  path: string[];
  type: McpHeaderParamType;
}

/** The result of {@link validateMcpHeaderDeclarations}. */
export type McpHeaderDeclarations = { ok: true; params: McpHeaderParam[] } | { ok: false; reason: string };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const ALLOWED_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);
const MAX_SCHEMA_DEPTH = 128;

// Keywords whose values are subschemas that are not reached through `properties`: an `x-mcp-header` below them is
// not statically reachable.
const SUBSCHEMA_KEYWORDS = [
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'items',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
] as const;
const SUBSCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;
const SUBSCHEMA_MAP_KEYWORDS = [
  '$defs',
  'definitions',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
] as const;

class DeclarationError extends Error {}

function describePath(path: readonly string[]): string {
  return path.length === 0 ? 'the schema root' : `property "${path.join('.')}"`;
}

/**
 * Reads and checks the `x-mcp-header` declarations of a tool's `inputSchema` (2026-07-28, SEP-2243). The tool is
 * invalid — a Streamable HTTP client drops it from its tool list and SHOULD log the reason — if any declaration:
 *
 * - is not a non-empty RFC 9110 token (`1*tchar`; so no spaces, CTLs, CR or LF);
 * - repeats another declaration's name, compared case-insensitively;
 * - sits on a property whose `type` is not `"string"`, `"integer"` or `"boolean"` (`"number"` is not allowed);
 * - is not statically reachable from the root through `properties` alone (never through `items`, `prefixItems`,
 *   `additionalProperties`, `oneOf` / `anyOf` / `allOf` / `not`, `if` / `then` / `else`, `$defs` / `$ref`, …), or
 *   sits on the root itself.
 *
 * @example
 * ```ts
 * const declared = validateMcpHeaderDeclarations({
 *   type: 'object',
 *   properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
 * });
 * // { ok: true, params: [{ name: 'Region', path: ['region'], type: 'string' }] }
 * ```
 */
export function validateMcpHeaderDeclarations(inputSchema: unknown): McpHeaderDeclarations {
  const params: McpHeaderParam[] = [];
  const seen = new Map<string, string[]>();

  const visit = (schema: unknown, path: string[] | null, depth: number): void => {
    if (!isJsonObject(schema)) return;
    if (depth > MAX_SCHEMA_DEPTH) {
      throw new DeclarationError(`the input schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
    }
    if (Object.hasOwn(schema, 'x-mcp-header')) declare(schema, path);
    const properties = schema.properties;
    if (isJsonObject(properties)) {
      for (const [name, sub] of Object.entries(properties))
        visit(sub, path === null ? null : [...path, name], depth + 1);
    }
    for (const keyword of SUBSCHEMA_KEYWORDS) visit(schema[keyword], null, depth + 1);
    for (const keyword of SUBSCHEMA_ARRAY_KEYWORDS) {
      const list = schema[keyword];
      if (Array.isArray(list)) for (const sub of list) visit(sub, null, depth + 1);
    }
    for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
      const map = schema[keyword];
      if (isJsonObject(map)) for (const sub of Object.values(map)) visit(sub, null, depth + 1);
    }
  };

  const declare = (schema: Record<string, unknown>, path: string[] | null): void => {
    const name = schema['x-mcp-header'];
    if (path === null || path.length === 0) {
      const where = path === null ? 'a subschema not reachable through "properties" alone' : 'the schema root';
      throw new DeclarationError(
        `x-mcp-header ${JSON.stringify(name)} is declared on ${where}; only properties reached through a chain of "properties" keys may be mirrored in headers`,
      );
    }
    if (typeof name !== 'string' || name === '') {
      throw new DeclarationError(`x-mcp-header on ${describePath(path)} must be a non-empty string`);
    }
    if (!TOKEN.test(name)) {
      throw new DeclarationError(
        `x-mcp-header ${JSON.stringify(name)} on ${describePath(path)} is not an RFC 9110 token (allowed: letters, digits and !#$%&'*+-.^_\`|~; no spaces or control characters)`,
      );
    }
    const key = name.toLowerCase();
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new DeclarationError(
        `x-mcp-header ${JSON.stringify(name)} on ${describePath(path)} repeats the one on ${describePath(earlier)} (names are case-insensitive)`,
      );
    }
    const type = schema.type;
    if (typeof type !== 'string' || !ALLOWED_TYPES.has(type)) {
      throw new DeclarationError(
        `x-mcp-header ${JSON.stringify(name)} on ${describePath(path)} needs "type" "string", "integer" or "boolean"; found ${JSON.stringify(type ?? null)}${type === 'number' ? ' (number is not allowed)' : ''}`,
      );
    }
    seen.set(key, path);
    params.push({ name, path, type: type as McpHeaderParamType });
  };

  try {
    if (!isJsonObject(inputSchema)) return { ok: false, reason: 'the input schema is not an object' };
    visit(inputSchema, [], 0);
  } catch (error) {
    if (error instanceof DeclarationError) return { ok: false, reason: error.message };
    throw error;
  }
  return { ok: true, params };
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isJsonObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

// The header text of an argument value; `undefined` when it cannot be mirrored (objects, arrays).
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) {
    // BigInt keeps large integers in plain decimal instead of exponent notation.
    return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value).toString() : String(value);
  }
  return undefined;
}

/**
 * The `Mcp-Param-{Name}` headers of a `tools/call` (2026-07-28, Streamable HTTP): for each declaration, the value at
 * its exact path in `arguments`, omitted when absent or `null`; strings as is, integers in decimal, booleans as
 * `true` / `false`; then encoded with {@link encodeHeaderValue}.
 *
 * @param params - from {@link validateMcpHeaderDeclarations} of the tool's input schema.
 *
 * @example
 * ```ts
 * headersForToolCall([{ name: 'Region', path: ['region'], type: 'string' }], { region: 'us-west1' });
 * // { 'Mcp-Param-Region': 'us-west1' }
 * ```
 */
export function headersForToolCall(
  params: readonly McpHeaderParam[],
  args: Record<string, unknown> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const value = valueAt(args, param.path);
    if (value === undefined || value === null) continue;
    const text = headerText(value);
    if (text !== undefined) headers[`${McpHeaders.ParamPrefix}${param.name}`] = encodeHeaderValue(text);
  }
  return headers;
}

// Which params field `Mcp-Name` mirrors, per method.
const NAME_SOURCES: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * The field of `params` that `Mcp-Name` mirrors for `method` (`name`, `uri` or, under the tasks extension,
 * `taskId`), or `undefined` when the method has no `Mcp-Name`.
 */
export function mcpNameSource(method: string): string | undefined {
  return Object.hasOwn(NAME_SOURCES, method) ? NAME_SOURCES[method] : undefined;
}

/** A message as {@link standardHeadersFor} and {@link compareRequestHeaders} read it. */
export interface HeaderedMessage {
  method: string;
  params?: unknown;
  /** Present on requests, absent on notifications. */
  id?: unknown;
}

/**
 * The standard headers of a 2026-07-28 Streamable HTTP POST: `MCP-Protocol-Version` (from the `_meta` envelope, or
 * `protocolVersion` when the message has none, e.g. a notification), `Mcp-Method`, and `Mcp-Name` (encoded) for
 * `tools/call`, `prompts/get`, `resources/read` and the tasks extension's `tasks/get|update|cancel`.
 *
 * @example
 * ```ts
 * standardHeadersFor({ method: 'tools/call', params: { name: 'get_weather', _meta } });
 * // { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_weather' }
 * ```
 */
export function standardHeadersFor(message: HeaderedMessage, protocolVersion?: string): Record<string, string> {
  const params = isJsonObject(message.params) ? message.params : undefined;
  const meta = params !== undefined && isJsonObject(params._meta) ? params._meta : undefined;
  const version = meta?.[MetaKeys.ProtocolVersion];
  const headers: Record<string, string> = {};
  if (typeof version === 'string') headers[McpHeaders.ProtocolVersion] = version;
  else if (protocolVersion !== undefined) headers[McpHeaders.ProtocolVersion] = protocolVersion;
  headers[McpHeaders.Method] = message.method;
  const source = mcpNameSource(message.method);
  const name = source === undefined ? undefined : params?.[source];
  if (typeof name === 'string') headers[McpHeaders.Name] = encodeHeaderValue(name);
  return headers;
}

/**
 * Request headers as a server sees them: a Fetch `Headers` object, or a plain record (as Node's
 * `IncomingMessage.headers`), looked up case-insensitively.
 */
export type HeaderSource =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The result of {@link compareRequestHeaders}: on failure, `detail` completes the message "Header mismatch: …". */
export type HeaderComparison = { ok: true } | { ok: false; detail: string; header: string };

const DUPLICATE = Symbol('duplicate header');

/**
 * A fetch `Headers` value without the optional whitespace (space, tab) around it, which is not part of the value
 * (RFC 9110 §5.5). Fetch's `Headers` strips it in Node, but workerd's keeps it. A plain record is taken as is.
 */
function withoutOws(value: string): string {
  const last = value.length - 1;
  if (last < 0) return value;
  const first = value.charCodeAt(0);
  const end = value.charCodeAt(last);
  return first === 32 || first === 9 || end === 32 || end === 9 ? value.replace(/^[ \t]+|[ \t]+$/g, '') : value;
}

function readHeader(headers: HeaderSource, name: string): string | undefined | typeof DUPLICATE {
  if (typeof headers.get === 'function') {
    const value = (headers as { get(name: string): string | null }).get(name);
    return value === null ? undefined : withoutOws(value);
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const wanted = name.toLowerCase();
  let found: string | undefined | typeof DUPLICATE;
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = record[key];
    if (value === undefined) continue;
    if (found !== undefined) return DUPLICATE;
    if (typeof value === 'string') found = value;
    else if (value.length === 1) found = value[0];
    else if (value.length > 1) return DUPLICATE;
  }
  return found;
}

const quote = (value: unknown): string =>
  typeof value === 'string' ? `'${value}'` : (JSON.stringify(value) ?? 'undefined');
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function sameValue(decoded: string, body: unknown): boolean | 'unsupported' {
  if (typeof body === 'string') return decoded === body;
  if (typeof body === 'boolean') return decoded === (body ? 'true' : 'false');
  if (typeof body === 'number') return NUMBER.test(decoded) && Number(decoded) === body;
  return 'unsupported';
}

/**
 * Checks a 2026-07-28 Streamable HTTP request's headers against its body: every HeaderMismatch (-32020, HTTP 400)
 * condition of SEP-2243.
 *
 * - `MCP-Protocol-Version` and `Mcp-Method` are required on requests and must equal the body's
 *   `_meta["io.modelcontextprotocol/protocolVersion"]` and `method`.
 * - `Mcp-Name` is required when the method mirrors a body field (`name`, `uri`, `taskId`) and must equal it after
 *   decoding; invalid characters or non-canonical Base64 fail.
 * - With `paramsDecl` (a `tools/call`): each declared `Mcp-Param-{Name}` must be present when the body value is
 *   present and not `null`, absent otherwise, and equal after decoding — integers compared numerically (`42` ==
 *   `42.0`), booleans as `true` / `false`. Unknown `Mcp-Param-*` headers are ignored.
 * - On notifications (no `id`) header requirements are undefined; headers that are present are still compared.
 *
 * A duplicated header counts as a mismatch. A missing envelope key is not checked here (that is -32602).
 *
 * @example
 * ```ts
 * const check = compareRequestHeaders(request.headers, body, declarations.params);
 * if (!check.ok) return errorResponse(400, headerMismatchError(check.detail));
 * ```
 */
export function compareRequestHeaders(
  headers: HeaderSource,
  body: HeaderedMessage,
  paramsDecl?: readonly McpHeaderParam[],
): HeaderComparison {
  const isRequest = body.id !== undefined;
  const params = isJsonObject(body.params) ? body.params : undefined;

  const method = readHeader(headers, McpHeaders.Method);
  if (method === DUPLICATE) return duplicate(McpHeaders.Method);
  if (method === undefined) {
    if (isRequest) return missing(McpHeaders.Method);
  } else if (method !== body.method) {
    return mismatch(McpHeaders.Method, method, body.method);
  }

  const version = readHeader(headers, McpHeaders.ProtocolVersion);
  if (version === DUPLICATE) return duplicate(McpHeaders.ProtocolVersion);
  if (version === undefined) {
    if (isRequest) return missing(McpHeaders.ProtocolVersion);
  } else {
    const meta = params !== undefined && isJsonObject(params._meta) ? params._meta : undefined;
    const bodyVersion = meta?.[MetaKeys.ProtocolVersion];
    if (bodyVersion !== undefined && version !== bodyVersion) {
      return mismatch(McpHeaders.ProtocolVersion, version, bodyVersion);
    }
  }

  const source = mcpNameSource(body.method);
  if (source !== undefined) {
    const result = compareMirrored(headers, McpHeaders.Name, params?.[source], isRequest);
    if (result !== undefined) return result;
  }

  if (paramsDecl !== undefined && paramsDecl.length > 0) {
    const args = params?.arguments;
    for (const param of paramsDecl) {
      const result = compareMirrored(
        headers,
        `${McpHeaders.ParamPrefix}${param.name}`,
        valueAt(args, param.path),
        true,
      );
      if (result !== undefined) return result;
    }
  }
  return { ok: true };
}

function compareMirrored(
  headers: HeaderSource,
  name: string,
  bodyValue: unknown,
  headerRequired: boolean,
): HeaderComparison | undefined {
  const raw = readHeader(headers, name);
  if (raw === DUPLICATE) return duplicate(name);
  const bodyHasValue = bodyValue !== undefined && bodyValue !== null;
  if (raw === undefined) {
    return bodyHasValue && headerRequired
      ? { ok: false, header: name, detail: `required header ${name} is missing (body value ${quote(bodyValue)})` }
      : undefined;
  }
  const decoded = decodeHeaderValue(raw);
  if (!decoded.ok) return { ok: false, header: name, detail: `${name} header has ${decoded.reason}` };
  if (!bodyHasValue) {
    return {
      ok: false,
      header: name,
      detail: `${name} header value ${quote(decoded.value)} has no matching value in the body`,
    };
  }
  const same = sameValue(decoded.value, bodyValue);
  if (same === 'unsupported') {
    return {
      ok: false,
      header: name,
      detail: `${name} mirrors a body value that is not a string, number or boolean (${quote(bodyValue)})`,
    };
  }
  return same ? undefined : mismatch(name, decoded.value, bodyValue);
}

function missing(name: string): HeaderComparison {
  return { ok: false, header: name, detail: `required header ${name} is missing` };
}

function duplicate(name: string): HeaderComparison {
  return { ok: false, header: name, detail: `header ${name} appears more than once` };
}

function mismatch(name: string, headerValue: string, bodyValue: unknown): HeaderComparison {
  return {
    ok: false,
    header: name,
    detail: `${name} header value ${quote(headerValue)} does not match body value ${quote(bodyValue)}`,
  };
}
