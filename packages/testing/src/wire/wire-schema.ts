import type { JsonRpcMessage, RequestId } from '@mcpkit/jsonrpc-core';
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import { SCHEMA_TEXTS } from './schemas/index';
import { TASKS_EXTENSION_DEFS } from './tasks-extension-schema';

/** The MCP revisions whose official schema the wire checker carries, oldest first. */
export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

/** One MCP revision the wire checker knows. */
export type Revision = (typeof REVISIONS)[number];

/** Which side sent a message. */
export type Sender = 'client' | 'server';

type JsonSchema = Record<string, unknown>;

/** Checks whole JSON-RPC messages against one revision's official schema, by method. */
export interface WireSchema {
  readonly revision: Revision;
  /**
   * The problems with `message` (empty when valid). Requests and notifications are checked against the schema type
   * for their method; a response against the result type of the request it answers, so `requestMethod` must be the
   * method of that request.
   */
  check(message: JsonRpcMessage, requestMethod?: string): string[];
}

const cache = new Map<Revision, WireSchema>();

/**
 * The wire schema of one revision, compiled on first use and kept for the process.
 *
 * @example
 * const problems = wireSchema('2025-11-25').check({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} });
 * // ['CallToolRequest/params must have required property \'name\'']
 */
export function wireSchema(revision: Revision): WireSchema {
  let schema = cache.get(revision);
  if (!schema) {
    schema = compile(revision);
    cache.set(revision, schema);
  }
  return schema;
}

function compile(revision: Revision): WireSchema {
  const raw = JSON.parse(SCHEMA_TEXTS[revision]) as JsonSchema;
  const defsKeyword = raw.$defs !== undefined ? '$defs' : 'definitions';
  // 2026-07-28: the tasks extension's messages too (no official schema exists for them; see tasks-extension-schema).
  if (revision === '2026-07-28') raw.$defs = { ...(raw.$defs as Record<string, JsonSchema>), ...TASKS_EXTENSION_DEFS };
  const defs = raw[defsKeyword] as Record<string, JsonSchema>;
  const options = { strict: false, validateFormats: false, allErrors: true } as const;
  const ajv = String(raw.$schema).includes('2020-12') ? new Ajv2020(options) : new Ajv(options);
  const id = `https://mcpkit.invalid/${revision}/schema.json`;
  ajv.addSchema({ ...raw, $id: id });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (typeName: string) => {
    let validate = compiled.get(typeName);
    if (!validate) {
      validate = ajv.compile({ $ref: `${id}#/${defsKeyword}/${typeName}` });
      compiled.set(typeName, validate);
    }
    return validate;
  };

  // method -> schema type, for requests and notifications (a method's type carries `method: {const}`).
  const requestTypes = new Map<string, string>();
  const notificationTypes = new Map<string, string>();
  for (const [name, definition] of Object.entries(defs)) {
    const method = (definition.properties as Record<string, { const?: string }> | undefined)?.method?.const;
    if (typeof method !== 'string') continue;
    if (name.endsWith('Request')) requestTypes.set(method, name);
    else if (name.endsWith('Notification')) notificationTypes.set(method, name);
  }
  const errorType = 'JSONRPCErrorResponse' in defs ? 'JSONRPCErrorResponse' : 'JSONRPCError';
  const resultEnvelope = 'JSONRPCResultResponse' in defs ? 'JSONRPCResultResponse' : 'JSONRPCResponse';
  const mayNeedInput = new Set(['tools/call', 'prompts/get', 'resources/read']);
  // What a request may be answered with instead of its own result type: a task handle (2025-11-25 task-augmented
  // requests; 2026-07-28 `tools/call` under the tasks extension).
  const taskResult =
    'TasksExtCreateTaskResult' in defs
      ? 'TasksExtCreateTaskResult'
      : 'CreateTaskResult' in defs
        ? 'CreateTaskResult'
        : '';
  const mayBeTask = new Set(
    taskResult === 'CreateTaskResult' ? ['tools/call', 'sampling/createMessage', 'elicitation/create'] : ['tools/call'],
  );

  const problems = (typeName: string, value: unknown): string[] => {
    const validate = validator(typeName);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${typeName}${error.instancePath} ${error.message ?? 'is invalid'}`);
  };

  return {
    revision,
    check(message, requestMethod) {
      if ('method' in message) {
        const isRequest = 'id' in message;
        const types = isRequest ? requestTypes : notificationTypes;
        const typeName = types.get(message.method);
        if (!typeName) return [`${message.method} is not a ${isRequest ? 'request' : 'notification'} in ${revision}`];
        const envelope = isRequest ? 'JSONRPCRequest' : 'JSONRPCNotification';
        return [...problems(envelope, message), ...problems(typeName, message)];
      }
      if ('error' in message) return problems(errorType, message);
      const envelopeProblems = problems(resultEnvelope, message);
      if (requestMethod === undefined) return [...envelopeProblems, 'a response to an unknown request'];
      const requestType = requestTypes.get(requestMethod);
      if (!requestType) return [...envelopeProblems, `${requestMethod} is not a request in ${revision}`];
      const resultName = requestType.replace(/Request$/, 'Result');
      const resultType = resultName in defs ? resultName : 'EmptyResult';
      const result = (message as { result: unknown }).result;
      const resultProblems = problems(resultType, result);
      if (resultProblems.length > 0 && mayNeedInput.has(requestMethod) && 'InputRequiredResult' in defs) {
        if (problems('InputRequiredResult', result).length === 0) return envelopeProblems;
      }
      if (resultProblems.length > 0 && taskResult !== '' && mayBeTask.has(requestMethod)) {
        if (problems(taskResult, result).length === 0) return envelopeProblems;
      }
      return [...envelopeProblems, ...resultProblems];
    },
  };
}

/**
 * Tracks requests in both directions so responses can be checked against the result type of what they answer.
 * Feed it every message in the order it crosses the wire.
 *
 * @example
 * const ledger = new WireLedger();
 * ledger.observe('client', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
 * ledger.observe('server', { jsonrpc: '2.0', id: 1, result: { tools: [] } }); // 'tools/list'
 */
export class WireLedger {
  readonly #pending = new Map<string, string>();

  /** Records `message` (sent by `sender`) and returns the request method a response answers, if it is one. */
  observe(sender: Sender, message: JsonRpcMessage): string | undefined {
    if ('method' in message) {
      if ('id' in message) this.#pending.set(key(sender, message.id), message.method);
      return undefined;
    }
    const id = (message as { id: RequestId | null }).id;
    if (id === null) return undefined;
    const answered: Sender = sender === 'client' ? 'server' : 'client';
    const method = this.#pending.get(key(answered, id));
    this.#pending.delete(key(answered, id));
    return method;
  }
}

function key(sender: Sender, id: RequestId): string {
  return `${sender}:${typeof id}:${id}`;
}
