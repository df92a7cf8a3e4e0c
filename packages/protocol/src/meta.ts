import type { RequestId } from '@mcpkit/jsonrpc-core';
import { isJsonObject } from '@mcpkit/jsonrpc-core';
import { isLoggingLevel } from './logging.js';
import type { ClientCapabilities } from './types/capabilities.js';
import type { Implementation, Result } from './types/common.js';
import type { LoggingLevel } from './types/logging.js';
import type { MetaObject, ProgressToken, RequestMetaObject } from './types/meta.js';

/**
 * The `_meta` keys the spec defines. `io.modelcontextprotocol/*` keys are 2026-07-28's envelope and result keys
 * (`related-task` is 2025-11-25's); `progressToken` exists in every revision; the W3C trace keys are SEP-414's.
 *
 * @example
 * ```ts
 * const version = params._meta?.[MetaKeys.ProtocolVersion];
 * ```
 */
export const MetaKeys = {
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  LogLevel: 'io.modelcontextprotocol/logLevel',
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
  RelatedTask: 'io.modelcontextprotocol/related-task',
  ProgressToken: 'progressToken',
  TraceParent: 'traceparent',
  TraceState: 'tracestate',
  Baggage: 'baggage',
} as const;

/** The keys a 2026-07-28 request's `_meta` must carry; a request without them is answered with -32602. */
export const REQUIRED_REQUEST_META_KEYS = [MetaKeys.ProtocolVersion, MetaKeys.ClientCapabilities] as const;

/** The result of {@link parseMetaKey}. */
export type MetaKeyParse =
  | {
      ok: true;
      /** The prefix without its trailing `/`, or `undefined` when the key has none. */
      prefix: string | undefined;
      name: string;
      /** The prefix's second label is `modelcontextprotocol` or `mcp`: the key belongs to the spec. */
      reserved: boolean;
    }
  | { ok: false; reason: string };

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;
const RESERVED_SECOND_LABELS: ReadonlySet<string> = new Set(['modelcontextprotocol', 'mcp']);

/**
 * Whether a `_meta` key prefix (without the trailing `/`) is reserved for the spec: its second label is
 * `modelcontextprotocol` or `mcp` (compared case-insensitively), e.g. `io.modelcontextprotocol`, `dev.mcp`.
 *
 * @example
 * ```ts
 * isReservedMetaPrefix('io.modelcontextprotocol'); // true
 * isReservedMetaPrefix('com.example'); // false
 * ```
 */
export function isReservedMetaPrefix(prefix: string): boolean {
  const dot = prefix.indexOf('.');
  if (dot < 0) return false;
  const end = prefix.indexOf('.', dot + 1);
  const second = prefix.slice(dot + 1, end < 0 ? undefined : end);
  return RESERVED_SECOND_LABELS.has(second.toLowerCase());
}

/**
 * Parses a `_meta` key against the grammar of 2025-06-18+ (restated in 2026-07-28):
 *
 * - optional prefix: dot-separated labels, each starting with a letter, ending with a letter or digit, with letters,
 *   digits and hyphens inside; followed by `/`;
 * - name: empty, or starting and ending with a letter or digit, with letters, digits, `.`, `_`, `-` inside.
 *
 * @example
 * ```ts
 * parseMetaKey('com.example/trace-id'); // { ok: true, prefix: 'com.example', name: 'trace-id', reserved: false }
 * parseMetaKey('io.modelcontextprotocol/protocolVersion').reserved; // true
 * parseMetaKey('-bad'); // { ok: false, reason: … }
 * ```
 */
export function parseMetaKey(key: string): MetaKeyParse {
  const slash = key.lastIndexOf('/');
  const name = slash < 0 ? key : key.slice(slash + 1);
  let prefix: string | undefined;
  if (slash >= 0) {
    prefix = key.slice(0, slash);
    if (prefix === '') return { ok: false, reason: `_meta key "${key}": the prefix before "/" is empty` };
    for (const label of prefix.split('.')) {
      if (!LABEL.test(label)) {
        return {
          ok: false,
          reason: `_meta key "${key}": prefix label "${label}" must start with a letter, end with a letter or digit, and contain only letters, digits and hyphens`,
        };
      }
    }
  }
  if (!NAME.test(name)) {
    return {
      ok: false,
      reason: `_meta key "${key}": name "${name}" must start and end with a letter or digit and contain only letters, digits, ".", "_" and "-"`,
    };
  }
  return { ok: true, prefix, name, reserved: prefix !== undefined && isReservedMetaPrefix(prefix) };
}

/**
 * Checks a `_meta` key an application wants to set: it must follow the grammar and must not use a reserved prefix.
 *
 * @example
 * ```ts
 * validateMetaKey('com.example/requestTag'); // { ok: true }
 * validateMetaKey('io.modelcontextprotocol/custom'); // { ok: false, reason: '… reserved …' }
 * ```
 */
export function validateMetaKey(key: string): { ok: true } | { ok: false; reason: string } {
  const parsed = parseMetaKey(key);
  if (!parsed.ok) return parsed;
  if (parsed.reserved) {
    return {
      ok: false,
      reason: `_meta key "${key}": prefix "${parsed.prefix}/" is reserved for the MCP specification; use a prefix of your own domain`,
    };
  }
  return { ok: true };
}

/** Input of {@link buildRequestMeta}. */
export interface RequestMetaInput {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
  progressToken?: ProgressToken;
  /** Further keys (traces, application keys); the envelope keys above win over same-named keys here. */
  extra?: MetaObject;
}

/**
 * Builds the `_meta` envelope of a 2026-07-28 request.
 *
 * @example
 * ```ts
 * const _meta = buildRequestMeta({
 *   protocolVersion: '2026-07-28',
 *   clientCapabilities: { elicitation: { form: {} } },
 *   clientInfo: { name: 'my-client', version: '1.0.0' },
 *   logLevel: 'info',
 * });
 * ```
 */
export function buildRequestMeta(input: RequestMetaInput): RequestMetaObject {
  // Built on every 2026-07-28 request: literal keys first and the spread last keep V8 on its fast object paths (a
  // spread followed by added or computed keys costs ~0.5 µs per object); the envelope's own keys are then set again
  // only when `extra` may have named them.
  const meta: RequestMetaObject = {
    'io.modelcontextprotocol/protocolVersion': input.protocolVersion,
    'io.modelcontextprotocol/clientCapabilities': input.clientCapabilities,
    ...input.extra,
  };
  if (input.extra !== undefined) {
    meta[MetaKeys.ProtocolVersion] = input.protocolVersion;
    meta[MetaKeys.ClientCapabilities] = input.clientCapabilities;
  }
  if (input.clientInfo !== undefined) meta[MetaKeys.ClientInfo] = input.clientInfo;
  if (input.logLevel !== undefined) meta[MetaKeys.LogLevel] = input.logLevel;
  if (input.progressToken !== undefined) meta.progressToken = input.progressToken;
  return meta;
}

/** The envelope of a 2026-07-28 request, read and checked by {@link readRequestEnvelope}. */
export interface RequestEnvelope {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
  progressToken?: ProgressToken;
  /** The whole `_meta` object, for other keys. */
  meta: RequestMetaObject;
}

/** The result of {@link readRequestEnvelope}. */
export type RequestEnvelopeRead =
  | { ok: true; envelope: RequestEnvelope }
  | {
      ok: false;
      /** Required keys that are absent. */
      missing: string[];
      /** Keys that are present with a value of the wrong shape (`_meta` itself when it is not an object). */
      invalid: string[];
    };

// Collects keys lazily so a valid envelope allocates no arrays.
function append(list: string[] | undefined, key: string): string[] {
  if (list === undefined) return [key];
  list.push(key);
  return list;
}

function isImplementation(value: unknown): value is Implementation {
  return isJsonObject(value) && typeof value.name === 'string' && typeof value.version === 'string';
}

/**
 * Reads the `_meta` envelope of a 2026-07-28 request's params. Required: `io.modelcontextprotocol/protocolVersion`
 * (a non-empty string) and `io.modelcontextprotocol/clientCapabilities` (an object). Optional keys are checked when
 * present (`clientInfo` needs `name` and `version`, `logLevel` must be a level, `progressToken` a string or
 * integer). On failure the caller answers -32602 (`invalidEnvelopeError`), HTTP 400.
 *
 * Shape checks only; full validation of `clientCapabilities` is the validators' job.
 *
 * @example
 * ```ts
 * const read = readRequestEnvelope(request.params);
 * if (!read.ok) throw invalidEnvelopeError(read.missing, read.invalid);
 * const { protocolVersion, clientCapabilities } = read.envelope;
 * ```
 */
export function readRequestEnvelope(params: unknown): RequestEnvelopeRead {
  const meta = isJsonObject(params) ? params._meta : undefined;
  if (!isJsonObject(meta)) {
    return {
      ok: false,
      missing: [...REQUIRED_REQUEST_META_KEYS],
      invalid: meta === undefined ? [] : ['_meta'],
    };
  }
  let missing: string[] | undefined;
  let invalid: string[] | undefined;
  const protocolVersion = meta[MetaKeys.ProtocolVersion];
  if (protocolVersion === undefined) missing = append(missing, MetaKeys.ProtocolVersion);
  else if (typeof protocolVersion !== 'string' || protocolVersion === '')
    invalid = append(invalid, MetaKeys.ProtocolVersion);
  const clientCapabilities = meta[MetaKeys.ClientCapabilities];
  if (clientCapabilities === undefined) missing = append(missing, MetaKeys.ClientCapabilities);
  else if (!isJsonObject(clientCapabilities)) invalid = append(invalid, MetaKeys.ClientCapabilities);
  const clientInfo = meta[MetaKeys.ClientInfo];
  if (clientInfo !== undefined && !isImplementation(clientInfo)) invalid = append(invalid, MetaKeys.ClientInfo);
  const logLevel = meta[MetaKeys.LogLevel];
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) invalid = append(invalid, MetaKeys.LogLevel);
  const progressToken = meta.progressToken;
  if (progressToken !== undefined && typeof progressToken !== 'string' && !Number.isInteger(progressToken)) {
    invalid = append(invalid, MetaKeys.ProgressToken);
  }
  if (missing !== undefined || invalid !== undefined)
    return { ok: false, missing: missing ?? [], invalid: invalid ?? [] };
  const envelope: RequestEnvelope = {
    protocolVersion: protocolVersion as string,
    clientCapabilities: clientCapabilities as ClientCapabilities,
    meta: meta as RequestMetaObject,
  };
  if (clientInfo !== undefined) envelope.clientInfo = clientInfo as Implementation;
  if (logLevel !== undefined) envelope.logLevel = logLevel as LoggingLevel;
  if (progressToken !== undefined) envelope.progressToken = progressToken as ProgressToken;
  return { ok: true, envelope };
}

/**
 * Returns a copy of `result` whose `_meta` carries `io.modelcontextprotocol/serverInfo` (SHOULD be on every
 * 2026-07-28 result). The input is not modified, so a cached result object can be reused.
 *
 * @example
 * ```ts
 * return withServerInfo({ resultType: 'complete', tools: [] }, { name: 'weather', version: '1.2.0' });
 * ```
 */
export function withServerInfo<R extends Result>(result: R, serverInfo: Implementation): R {
  return { ...result, _meta: { ...result._meta, [MetaKeys.ServerInfo]: serverInfo } };
}

/**
 * Reads `_meta["io.modelcontextprotocol/serverInfo"]` of a result, if it is a well-formed `Implementation`.
 *
 * @example
 * ```ts
 * const server = readServerInfo(result)?.name;
 * ```
 */
export function readServerInfo(result: unknown): Implementation | undefined {
  const meta = isJsonObject(result) ? result._meta : undefined;
  const info = isJsonObject(meta) ? meta[MetaKeys.ServerInfo] : undefined;
  return isImplementation(info) ? info : undefined;
}

/**
 * Reads `_meta["io.modelcontextprotocol/subscriptionId"]` of a notification's params or a listen result: the id of
 * the `subscriptions/listen` request whose stream it belongs to.
 *
 * @example
 * ```ts
 * const stream = streams.get(readSubscriptionId(notification.params));
 * ```
 */
export function readSubscriptionId(paramsOrResult: unknown): RequestId | undefined {
  const meta = isJsonObject(paramsOrResult) ? paramsOrResult._meta : undefined;
  const id = isJsonObject(meta) ? meta[MetaKeys.SubscriptionId] : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
