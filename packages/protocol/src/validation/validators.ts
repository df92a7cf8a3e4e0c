import { isJsonObject } from '@mcpkit/jsonrpc-core';
import { VALID, type ValidationIssue, type ValidationResult } from './issues.js';
import type { Validator } from './kit.js';
import { allOf, explainAll } from './kit-combinators.js';
import type { RevisionDefinition, SchemaRevision } from './revision-definition.js';
import { revision20241105 } from './spec-2024-11-05.js';
import { revision20250326 } from './spec-2025-03-26.js';
import { revision20250618 } from './spec-2025-06-18.js';
import { revision20251125 } from './spec-2025-11-25.js';
import { revision20260728 } from './spec-2026-07-28.js';

/**
 * The validators of one protocol revision. Every function returns the shared `{ ok: true }` for a valid value (no
 * allocation) or `{ ok: false, issues }` with JSON paths relative to the value passed in.
 */
export interface McpValidators {
  readonly version: SchemaRevision;
  /** 2025-03-26 only: the protocol allows JSON-RPC batches. The functions below validate one message each. */
  readonly batches: boolean;
  /** Every schema type name of this revision (the keys `byType` accepts). */
  readonly typeNames: readonly string[];

  /** A whole JSON-RPC request from client to server. An unknown method yields an `unknown_method` issue. */
  clientRequest(message: unknown): ValidationResult;
  /** A whole JSON-RPC request from server to client (none exist in 2026-07-28: every method is unknown). */
  serverRequest(message: unknown): ValidationResult;
  /** A whole JSON-RPC notification from client to server. */
  clientNotification(message: unknown): ValidationResult;
  /** A whole JSON-RPC notification from server to client. */
  serverNotification(message: unknown): ValidationResult;
  /**
   * The `result` member of the response to a request of `method` (either direction; in 2026-07-28 also the input
   * requests `sampling/createMessage`, `roots/list`, `elicitation/create`, whose results travel in `inputResponses`),
   * read the way the receiver must read it:
   * - 2026-07-28 `tools/call`, `prompts/get`, `resources/read`: `resultType: "input_required"` selects
   *   `InputRequiredResult` (which must carry `inputRequests` or `requestState`), any other value the complete result;
   *   every other method rejects `input_required`.
   * - 2026-07-28 cacheable results: `ttlMs` / `cacheScope` may be absent and `ttlMs` negative (clients treat both
   *   as 0, SEP-2549); the named validators (`listToolsResult`…) and `byType` require them as the schema does.
   * - 2025-11-25 `tools/call`, `sampling/createMessage`, `elicitation/create`: `CreateTaskResult` is also accepted
   *   (task-augmented requests).
   * Extension result types (e.g. the tasks extension's `resultType: "task"`) are the caller's to recognise first.
   */
  result(method: string, result: unknown): ValidationResult;
  /** A whole JSON-RPC error response. */
  errorResponse(message: unknown): ValidationResult;
  /** A value against any schema type of this revision, by its schema name (`CallToolResult`, `ContentBlock`…). */
  byType(typeName: string, value: unknown): ValidationResult;

  /** `params` of `tools/call` (including the `_meta` rules of the request envelope). */
  callToolParams(params: unknown): ValidationResult;
  /** The complete result of `tools/call` (`CallToolResult`). */
  callToolResult(result: unknown): ValidationResult;
  listToolsResult(result: unknown): ValidationResult;
  listPromptsResult(result: unknown): ValidationResult;
  listResourcesResult(result: unknown): ValidationResult;
  listResourceTemplatesResult(result: unknown): ValidationResult;
  /** One content block of a tool result or prompt message, as this revision defines them. */
  contentBlock(block: unknown): ValidationResult;
  /** One `Tool` definition. */
  tool(tool: unknown): ValidationResult;
  /** `params` of `initialize` (up to 2025-11-25; `unknown_type` in 2026-07-28). */
  initializeParams(params: unknown): ValidationResult;
  /** Result of `initialize` (up to 2025-11-25; `unknown_type` in 2026-07-28). */
  initializeResult(result: unknown): ValidationResult;
  /** Result of `server/discover` (2026-07-28; `unknown_type` before). */
  discoverResult(result: unknown): ValidationResult;
  /** An `input_required` result, with its "at least one of" rule (2026-07-28; `unknown_type` before). */
  inputRequiredResult(result: unknown): ValidationResult;
  /** The per-request `params._meta` envelope (2026-07-28; `unknown_type` before). */
  requestMeta(meta: unknown): ValidationResult;
}

const DEFINITIONS: Readonly<Record<SchemaRevision, RevisionDefinition>> = {
  '2024-11-05': revision20241105,
  '2025-03-26': revision20250326,
  '2025-06-18': revision20250618,
  '2025-11-25': revision20251125,
  '2026-07-28': revision20260728,
};

const cache = new Map<SchemaRevision, McpValidators>();

/**
 * The validators of a protocol revision, compiled on first use and cached.
 * @example
 * const v = getValidators('2026-07-28');
 * const verdict = v.clientRequest(JSON.parse(line));
 * if (!verdict.ok) console.error(verdict.issues); // [{ path: '$.params._meta', code: 'missing_key', … }]
 */
export function getValidators(version: SchemaRevision): McpValidators {
  let validators = cache.get(version);
  if (validators === undefined) {
    const definition = DEFINITIONS[version];
    if (definition === undefined) {
      throw new RangeError(
        `No validators for protocol revision "${String(version)}"; known revisions: ${Object.keys(DEFINITIONS).join(', ')}`,
      );
    }
    validators = compile(definition);
    cache.set(version, validators);
  }
  return validators;
}

/** `validate` specialised to one validator: the hot call site sees a single `check` function. */
function runner(validator: Validator): (value: unknown) => ValidationResult {
  const check = validator.check;
  return (value) => (check(value) ? VALID : { ok: false, issues: explainAll(validator, value) });
}

function failure(issue: ValidationIssue): ValidationResult {
  return Object.freeze({ ok: false as const, issues: Object.freeze([Object.freeze(issue)]) });
}

/** Field `key` of an object type, or undefined. */
function fieldOf(type: Validator | undefined, key: string): Validator | undefined {
  return type?.fields?.get(key)?.validator;
}

function compile(definition: RevisionDefinition): McpValidators {
  const { types, version } = definition;
  const typeTable = new Map<string, Validator>(Object.entries(types));
  const typeOf = (name: string): Validator => {
    const type = typeTable.get(name);
    if (type === undefined) throw new Error(`Revision ${version}: method table names unknown type ${name}`);
    return type;
  };
  const requestEnvelope = typeOf(definition.requestEnvelope);
  const notificationEnvelope = typeOf(definition.notificationEnvelope);

  // A message validator per method: the method's own type, plus the JSON-RPC envelope type in revisions where the
  // method types are `{method, params}` only.
  const messageTable = (entries: Readonly<Record<string, string>>, envelope: Validator): Map<string, Validator> => {
    const table = new Map<string, Validator>();
    for (const [method, typeName] of Object.entries(entries)) {
      const type = typeOf(typeName);
      table.set(method, definition.typesIncludeEnvelope ? type : allOf([envelope, type], { name: typeName }));
    }
    return table;
  };

  const messageValidator = (
    entries: Readonly<Record<string, string>>,
    envelope: Validator,
    direction: string,
  ): ((message: unknown) => ValidationResult) => {
    const table = messageTable(entries, envelope);
    const checks = new Map<string, (value: unknown) => boolean>();
    for (const [method, validator] of table) checks.set(method, validator.check);
    return (message) => {
      if (isJsonObject(message)) {
        const method = message.method;
        if (typeof method === 'string') {
          const check = checks.get(method);
          if (check?.(message) === true) return VALID;
        }
      }
      const method = isJsonObject(message) ? message.method : undefined;
      const validator = typeof method === 'string' ? table.get(method) : undefined;
      if (validator !== undefined) return { ok: false, issues: explainAll(validator, message) };
      const issues: ValidationIssue[] = [];
      if (typeof method === 'string') {
        issues.push({
          path: '$.method',
          code: 'unknown_method',
          message: `unknown method "${method}": not a ${direction} in protocol revision ${version}`,
        });
      }
      if (!envelope.check(message)) envelope.explain(message, '$', issues);
      return { ok: false, issues };
    };
  };

  const results = new Map<string, (value: unknown) => ValidationResult>();
  for (const [method, type] of Object.entries(definition.results)) {
    results.set(method, runner(typeof type === 'string' ? typeOf(type) : type));
  }
  const typeRunners = new Map<string, (value: unknown) => ValidationResult>();
  for (const [name, type] of typeTable) typeRunners.set(name, runner(type));

  const byName = (name: string): ((value: unknown) => ValidationResult) => {
    const type = typeTable.get(name);
    if (type === undefined) {
      const missing = failure({
        path: '$',
        code: 'unknown_type',
        message: `type ${name} does not exist in protocol revision ${version}`,
      });
      return () => missing;
    }
    return typeRunners.get(name) ?? runner(type);
  };
  const fromValidator = (type: Validator | undefined, name: string): ((value: unknown) => ValidationResult) =>
    type === undefined ? byName(name) : runner(type);

  // `params` as the hot path sees it: the method's params type, and the envelope's `params` rules where separate.
  const paramsOf = (requestType: string): Validator | undefined => {
    const type = typeTable.get(requestType);
    const params = fieldOf(type, 'params');
    if (params === undefined || definition.typesIncludeEnvelope) return params;
    const envelopeParams = fieldOf(requestEnvelope, 'params');
    return envelopeParams === undefined ? params : allOf([envelopeParams, params], { name: `${requestType} params` });
  };
  const contentBlock = typeTable.get('ContentBlock') ?? fieldOf(typeTable.get('CallToolResult'), 'content')?.item;

  return {
    version,
    batches: definition.batches,
    typeNames: Object.freeze([...typeTable.keys()]),
    clientRequest: messageValidator(definition.clientRequests, requestEnvelope, 'client request'),
    serverRequest: messageValidator(definition.serverRequests, requestEnvelope, 'server request'),
    clientNotification: messageValidator(definition.clientNotifications, notificationEnvelope, 'client notification'),
    serverNotification: messageValidator(definition.serverNotifications, notificationEnvelope, 'server notification'),
    result: (method, result) => {
      const run = results.get(method);
      if (run === undefined) {
        return failure({
          path: '$',
          code: 'unknown_method',
          message: `unknown method "${method}": no result type in protocol revision ${version}`,
        });
      }
      return run(result);
    },
    errorResponse: byName(definition.errorResponse),
    byType: (typeName, value) => {
      const run = typeRunners.get(typeName);
      if (run === undefined) {
        return failure({
          path: '$',
          code: 'unknown_type',
          message: `type ${typeName} does not exist in protocol revision ${version}`,
        });
      }
      return run(value);
    },
    callToolParams: fromValidator(paramsOf('CallToolRequest'), 'CallToolRequestParams'),
    callToolResult: byName('CallToolResult'),
    listToolsResult: byName('ListToolsResult'),
    listPromptsResult: byName('ListPromptsResult'),
    listResourcesResult: byName('ListResourcesResult'),
    listResourceTemplatesResult: byName('ListResourceTemplatesResult'),
    contentBlock: fromValidator(contentBlock, 'ContentBlock'),
    tool: byName('Tool'),
    initializeParams: fromValidator(paramsOf('InitializeRequest'), 'InitializeRequestParams'),
    initializeResult: byName('InitializeResult'),
    discoverResult: byName('DiscoverResult'),
    inputRequiredResult: fromValidator(definition.extras?.inputRequiredResult, 'InputRequiredResult'),
    requestMeta: byName('RequestMetaObject'),
  };
}
