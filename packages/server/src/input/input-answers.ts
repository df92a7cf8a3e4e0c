import { isJsonObject } from '@mcpkit/jsonrpc-core';
import { invalidParamsError } from '@mcpkit/protocol';

// Shape checks only: enough that a handler can trust the fields it reads (`action`, `content`, `roots`), not a full
// schema validation of what the client's user or model produced.
const CHECKS: Record<string, (value: Record<string, unknown>) => boolean> = {
  'elicitation/create': (value) =>
    (value.action === 'accept' || value.action === 'decline' || value.action === 'cancel') &&
    (value.content === undefined || isJsonObject(value.content)),
  'sampling/createMessage': (value) =>
    (value.role === 'assistant' || value.role === 'user') &&
    value.content !== undefined &&
    typeof value.model === 'string',
  'roots/list': (value) => Array.isArray(value.roots),
};

/**
 * Checks the client's answer to an ask (a legacy response or a 2026 `inputResponses` entry) has the shape of its
 * result type; throws -32602 naming the key otherwise.
 */
export function checkAnswer(method: string, key: string, value: unknown): unknown {
  const check = CHECKS[method];
  if (check !== undefined && !(isJsonObject(value) && check(value))) {
    throw invalidParamsError(`The client's answer to '${key}' (${method}) is not a valid ${method} result`, {
      key,
      method,
    });
  }
  return value;
}
