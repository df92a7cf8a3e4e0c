import type { AbortSource } from '@mcpkit/jsonrpc-core';
import {
  type ClientCapabilities,
  formatCapabilityPath,
  type InputRequest,
  type InputRequests,
  type InputResponse,
  type InputResponses,
  missingCapabilities,
  readRequiredClientCapabilities,
} from '@mcpkit/protocol';
import { McpClientError } from './errors';
import type { InputHandlers, InputRequestContext } from './options';

/** The input request methods and the handler that answers each. */
const HANDLER_OF = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
} as const satisfies Record<string, keyof InputHandlers>;

type InputMethod = keyof typeof HANDLER_OF;

function isInputMethod(method: unknown): method is InputMethod {
  return typeof method === 'string' && Object.hasOwn(HANDLER_OF, method);
}

/**
 * A 2026-07-28 -32021 ("Missing required client capability") naming an input capability, in mcpkit's terms: the
 * wire's advice (declare it in `_meta`) is not something a user of this client can act on, and 2025-11-25 reports the
 * same mistake (`ERR_NO_INPUT_HANDLER`) when the client is asked. Undefined for any other error, which stays as it is.
 */
export function explainMissingInputCapability(
  error: unknown,
  method: string,
  handlers: InputHandlers,
): McpClientError | undefined {
  if (typeof error !== 'object' || error === null || typeof (error as { code?: unknown }).code !== 'number') {
    return undefined;
  }
  const required = readRequiredClientCapabilities(error as { code: number; data?: unknown });
  if (required === undefined) return undefined;
  const kinds = Object.values(HANDLER_OF).filter((kind) => required[kind] !== undefined);
  if (kinds.length === 0) return undefined;
  const missing = kinds.filter((kind) => handlers[kind] === undefined);
  if (missing.length > 0) {
    return new McpClientError(
      'ERR_NO_INPUT_HANDLER',
      `${method}: the server needs to ask the client (${missing.join(', ')}), but no handler was configured: pass ${missing.map((kind) => `handlers.${kind}`).join(' and ')} to new Client()`,
      { method, handler: missing[0], handlers: missing, requiredCapabilities: required },
      { cause: error },
    );
  }
  const paths = kinds.map((kind) => JSON.stringify({ [kind]: required[kind] }));
  return new McpClientError(
    'ERR_UNDECLARED_INPUT_REQUEST',
    `${method}: the server needs the client capability ${paths.join(' and ')}, which this client did not declare: add it to the capabilities option of new Client()`,
    { method, requiredCapabilities: required },
    { cause: error },
  );
}

/** The input request methods a legacy server may send the client. */
export const INPUT_METHODS = Object.keys(HANDLER_OF) as readonly InputMethod[];

/**
 * The capabilities a client declares: `declared` when given (each capability needs its handler, else a `TypeError`),
 * otherwise one per handler (`sampling: {}`, `elicitation: {form: {}}`, `roots: {listChanged: true}`).
 */
export function resolveClientCapabilities(
  handlers: InputHandlers,
  declared: ClientCapabilities | undefined,
): ClientCapabilities {
  const capabilities = declared ?? capabilitiesFromHandlers(handlers);
  for (const kind of Object.values(HANDLER_OF)) {
    if (capabilities[kind] !== undefined && handlers[kind] === undefined) {
      throw new TypeError(
        `new Client: capabilities declare "${kind}" but handlers.${kind} is missing; add the handler or drop the capability`,
      );
    }
  }
  return capabilities;
}

function capabilitiesFromHandlers(handlers: InputHandlers): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (handlers.sampling) capabilities.sampling = {};
  if (handlers.elicitation) capabilities.elicitation = { form: {} };
  // The client can tell the server its roots changed (`notifyRootsListChanged`), so it says so.
  if (handlers.roots) capabilities.roots = { listChanged: true };
  return capabilities;
}

/**
 * Runs the handler for one input request (a legacy server→client request or a 2026-07-28 input request), after
 * checking the client declared the capability it needs in `version`.
 */
export async function answerInputRequest(
  handlers: InputHandlers,
  declared: ClientCapabilities,
  version: string,
  request: { method: string; params?: unknown },
  context: InputRequestContext,
): Promise<InputResponse> {
  const { method, params } = request;
  const where = context.key === undefined ? `'${method}'` : `'${method}' (input request "${context.key}")`;
  if (!isInputMethod(method)) {
    throw new McpClientError('ERR_INVALID_RESULT', `The server asked for ${where}, which is not an input request`, {
      method,
      key: context.key,
    });
  }
  const missing = missingCapabilities(method, version, { client: declared }, params);
  if (missing.length > 0) {
    const paths = missing.map((requirement) => formatCapabilityPath(requirement.path));
    throw new McpClientError(
      'ERR_UNDECLARED_INPUT_REQUEST',
      `The server asked for ${where}, which needs the client capability ${paths.join(' and ')}; this client did not declare it`,
      { method, key: context.key, missing: paths },
    );
  }
  const kind = HANDLER_OF[method];
  const handler = handlers[kind] as
    | ((params: unknown, context: InputRequestContext) => InputResponse | Promise<InputResponse>)
    | undefined;
  if (handler === undefined) {
    throw new McpClientError(
      'ERR_NO_INPUT_HANDLER',
      `The server asked for ${where}, but no "${kind}" handler was configured: pass handlers.${kind} to new Client()`,
      { method, key: context.key, handler: kind },
    );
  }
  return handler(params, context);
}

/**
 * Fulfils every input request of an `input_required` result, concurrently. If one fails, the others' signal is
 * aborted and the first failure is thrown: a retry needs every answer.
 */
export async function fulfilInputRequests(
  inputRequests: InputRequests,
  handlers: InputHandlers,
  declared: ClientCapabilities,
  version: string,
  forMethod: string,
  signal: AbortSource | undefined,
): Promise<InputResponses> {
  const keys = Object.keys(inputRequests);
  const responses: InputResponses = {};
  if (keys.length === 0) return responses;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.all(
      keys.map(async (key) => {
        const request = inputRequests[key] as InputRequest;
        try {
          responses[key] = await answerInputRequest(handlers, declared, version, request, {
            signal: controller.signal,
            era: 'modern',
            key,
            forMethod,
          });
        } catch (error) {
          controller.abort(error);
          throw error;
        }
      }),
    );
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return responses;
}
