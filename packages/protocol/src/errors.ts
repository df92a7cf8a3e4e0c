import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import type { ClientCapabilities } from './types/capabilities.js';
import type { ElicitRequestURLParams, URLElicitationRequiredErrorData } from './types/elicitation.js';
import type {
  MissingRequiredClientCapabilityErrorData,
  ResourceNotFoundErrorData,
  UnsupportedProtocolVersionErrorData,
} from './types/errors.js';
import { isSupportedVersion, revisionHas } from './versions.js';

/**
 * JSON-RPC error codes MCP uses, across revisions.
 *
 * Allocation policy (2026-07-28, PR #2907): -32700 and -32600 … -32603 are JSON-RPC's; -32000 … -32019 are legacy /
 * implementation-defined (only -32002 has a shared meaning); -32020 … -32099 are allocated by the spec.
 *
 * @example
 * ```ts
 * if (error.code === McpErrorCode.UnsupportedProtocolVersion) retryWith(error.data.supported);
 * ```
 */
export const McpErrorCode = {
  /** Invalid JSON. */
  ParseError: -32700,
  /** Not a valid JSON-RPC request. */
  InvalidRequest: -32600,
  /** Unknown method, or one gated by a capability the server did not advertise. HTTP 404 in 2026-07-28. */
  MethodNotFound: -32601,
  /** Invalid params, including a missing `_meta` envelope key and (2026-07-28) resource not found. */
  InvalidParams: -32602,
  /** Internal error. */
  InternalError: -32603,
  /** Resource not found, 2024-11-05 … 2025-11-25. Retired in 2026-07-28 (MUST NOT be sent; still accept it). */
  ResourceNotFound: -32002,
  /** `URLElicitationRequiredError`, 2025-11-25 only. Retired in 2026-07-28. */
  UrlElicitationRequired: -32042,
  /** `HeaderMismatchError` (2026-07-28): HTTP headers missing, malformed or not matching the body. HTTP 400. */
  HeaderMismatch: -32020,
  /** The HeaderMismatch code of early 2026-07-28 drafts. Never send it; accept it when reading. */
  HeaderMismatchDraft: -32001,
  /** `MissingRequiredClientCapabilityError` (2026-07-28). HTTP 400. */
  MissingRequiredClientCapability: -32021,
  /** `UnsupportedProtocolVersionError` (2026-07-28). HTTP 400. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** One of the codes in {@link McpErrorCode}. */
export type McpErrorCode = (typeof McpErrorCode)[keyof typeof McpErrorCode];

/**
 * Whether `code` means HeaderMismatch: -32020, or -32001 as sent by implementations of early drafts.
 *
 * @example
 * ```ts
 * isHeaderMismatchCode(-32001); // true
 * ```
 */
export function isHeaderMismatchCode(code: unknown): boolean {
  return code === McpErrorCode.HeaderMismatch || code === McpErrorCode.HeaderMismatchDraft;
}

/**
 * Whether `code` is one only a 2026-07-28 (modern) server sends: HeaderMismatch (either code), missing client
 * capability, or unsupported version. A dual-era client uses it to tell a modern server's 400 from a legacy one's.
 */
export function isModernEraErrorCode(code: unknown): boolean {
  return (
    isHeaderMismatchCode(code) ||
    code === McpErrorCode.MissingRequiredClientCapability ||
    code === McpErrorCode.UnsupportedProtocolVersion
  );
}

/**
 * A -32020 `HeaderMismatchError`: the message is `Header mismatch: <detail>`.
 *
 * @example
 * ```ts
 * throw headerMismatchError("Mcp-Name header value 'foo' does not match body value 'bar'");
 * ```
 */
export function headerMismatchError(detail: string): JsonRpcError {
  return new JsonRpcError(McpErrorCode.HeaderMismatch, `Header mismatch: ${detail}`);
}

function describeCapabilities(capabilities: object, prefix = ''): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(capabilities)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const nested = value !== null && typeof value === 'object' ? describeCapabilities(value, path) : [];
    if (nested.length === 0) paths.push(path);
    else paths.push(...nested);
  }
  return paths;
}

/**
 * A -32021 `MissingRequiredClientCapabilityError`: the request needs client capabilities its `_meta` did not
 * declare. `data.requiredCapabilities` is a `ClientCapabilities` object naming them (build one from paths with
 * `capabilitiesFromPaths`).
 *
 * @example
 * ```ts
 * throw missingRequiredClientCapabilityError({ elicitation: {} });
 * // code -32021, message 'Missing required client capability: elicitation'
 * ```
 */
export function missingRequiredClientCapabilityError(
  requiredCapabilities: ClientCapabilities,
  message?: string,
): JsonRpcError {
  const names = describeCapabilities(requiredCapabilities);
  const data: MissingRequiredClientCapabilityErrorData = { requiredCapabilities };
  return new JsonRpcError(
    McpErrorCode.MissingRequiredClientCapability,
    message ??
      `Missing required client capability: ${names.join(', ') || '(none named)'}. Declare it in _meta["io.modelcontextprotocol/clientCapabilities"] and retry.`,
    data,
  );
}

/**
 * A -32022 `UnsupportedProtocolVersionError` with `data: {supported, requested}`.
 *
 * @example
 * ```ts
 * throw unsupportedProtocolVersionError(['2026-07-28', '2025-11-25'], '1900-01-01');
 * ```
 */
export function unsupportedProtocolVersionError(supported: readonly string[], requested: unknown): JsonRpcError {
  const data: UnsupportedProtocolVersionErrorData = {
    supported: [...supported],
    requested: typeof requested === 'string' ? requested : String(requested),
  };
  return new JsonRpcError(
    McpErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version '${data.requested}'; supported: ${data.supported.join(', ')}`,
    data,
  );
}

/**
 * The "resource not found" error of the revision in use: -32602 (Invalid params) in 2026-07-28 (SEP-2164), -32002
 * before. `data.uri` names the resource.
 *
 * @example
 * ```ts
 * resourceNotFoundError('file:///missing.txt', '2026-07-28').code; // -32602
 * resourceNotFoundError('file:///missing.txt', '2025-06-18').code; // -32002
 * ```
 */
export function resourceNotFoundError(uri: string, version: string): JsonRpcError {
  const data: ResourceNotFoundErrorData = { uri };
  // The revision table says which code the revision uses (-32002 became -32602); a version it does not know keeps the
  // older code.
  const code =
    revisionHas(version, 'resourceNotFoundCode32002') || !isSupportedVersion(version)
      ? McpErrorCode.ResourceNotFound
      : McpErrorCode.InvalidParams;
  return new JsonRpcError(code, `Resource not found: ${uri}`, data);
}

/**
 * A -32602 Invalid params error.
 *
 * @example
 * ```ts
 * throw invalidParamsError('Unknown tool: invalid_tool_name');
 * ```
 */
export function invalidParamsError(message: string, data?: unknown): JsonRpcError {
  return new JsonRpcError(McpErrorCode.InvalidParams, message, data);
}

/**
 * A -32601 Method not found error, with `data: {method, reason?}`. Also the answer to a method gated by a server
 * capability the server did not advertise.
 *
 * @example
 * ```ts
 * throw methodNotFoundError('prompts/list', 'Server does not support the prompts capability');
 * ```
 */
export function methodNotFoundError(method: string, reason?: string): JsonRpcError {
  const data = reason === undefined ? { method } : { method, reason };
  return new JsonRpcError(McpErrorCode.MethodNotFound, `Method not found: ${method}`, data);
}

/**
 * A -32602 error for a request whose 2026-07-28 `_meta` envelope lacks required keys or holds invalid values, with
 * `data: {missing, invalid}`. HTTP status 400.
 *
 * @example
 * ```ts
 * const read = readRequestEnvelope(params);
 * if (!read.ok) throw invalidEnvelopeError(read.missing, read.invalid);
 * ```
 */
export function invalidEnvelopeError(missing: readonly string[], invalid: readonly string[] = []): JsonRpcError {
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`missing ${missing.map((key) => `"${key}"`).join(', ')}`);
  if (invalid.length > 0) parts.push(`invalid ${invalid.map((key) => `"${key}"`).join(', ')}`);
  return new JsonRpcError(
    McpErrorCode.InvalidParams,
    `Invalid request _meta envelope: ${parts.join('; ') || 'malformed'}`,
    { missing: [...missing], invalid: [...invalid] },
  );
}

/**
 * A -32042 `URLElicitationRequiredError` (2025-11-25 only; 2026-07-28 uses an `InputRequiredResult` instead).
 *
 * @example
 * ```ts
 * throw urlElicitationRequiredError([{ mode: 'url', elicitationId: 'e1', url: 'https://example.com/auth', message: 'Sign in' }]);
 * ```
 */
export function urlElicitationRequiredError(elicitations: ElicitRequestURLParams[], message?: string): JsonRpcError {
  const data: URLElicitationRequiredErrorData = { elicitations };
  return new JsonRpcError(
    McpErrorCode.UrlElicitationRequired,
    message ?? 'This request requires more information from the user via a URL',
    data,
  );
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * Reads the `{supported, requested}` data of a -32022 error received from a server; `undefined` when the error is
 * not one or its data is malformed.
 *
 * @example
 * ```ts
 * const data = readUnsupportedProtocolVersionData(error);
 * if (data) version = selectModernVersion(data.supported);
 * ```
 */
export function readUnsupportedProtocolVersionData(error: {
  code: number;
  data?: unknown;
}): UnsupportedProtocolVersionErrorData | undefined {
  if (error.code !== McpErrorCode.UnsupportedProtocolVersion) return undefined;
  const data = error.data as { supported?: unknown; requested?: unknown } | null | undefined;
  if (data === null || typeof data !== 'object' || !isStringArray(data.supported)) return undefined;
  return { supported: data.supported, requested: typeof data.requested === 'string' ? data.requested : '' };
}

/**
 * Reads `data.requiredCapabilities` of a -32021 error received from a server; `undefined` when the error is not one
 * or its data is malformed.
 */
export function readRequiredClientCapabilities(error: {
  code: number;
  data?: unknown;
}): ClientCapabilities | undefined {
  if (error.code !== McpErrorCode.MissingRequiredClientCapability) return undefined;
  const data = error.data as { requiredCapabilities?: unknown } | null | undefined;
  if (data === null || typeof data !== 'object') return undefined;
  const required = data.requiredCapabilities;
  if (required === null || typeof required !== 'object' || Array.isArray(required)) return undefined;
  return required as ClientCapabilities;
}
