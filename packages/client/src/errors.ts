import { defineCodedError } from '@mcpkit/jsonrpc-core';

/** The codes of {@link McpClientError}: problems the client found locally, never errors the server sent. */
export type McpClientErrorCode =
  /** A method was called before `connect()` finished, or after `close()`. */
  | 'ERR_NOT_CONNECTED'
  /** `connect()` was called on a connected client. */
  | 'ERR_ALREADY_CONNECTED'
  /** Client and server share no protocol version (data: what each side supports). */
  | 'ERR_VERSION_NEGOTIATION'
  /** `connect()` got no answer from an MCP server to `server/discover` nor to `initialize` (data.attempts: each error). */
  | 'ERR_CONNECT_FAILED'
  /** The server answered with something the protocol does not allow (unknown `resultType`, misplaced input request). */
  | 'ERR_INVALID_RESULT'
  /** The server asked for input (sampling, elicitation, roots) and no handler for it was configured. */
  | 'ERR_NO_INPUT_HANDLER'
  /** The server asked for input of a kind the client did not declare in its capabilities. */
  | 'ERR_UNDECLARED_INPUT_REQUEST'
  /** The server kept answering `input_required` past `maxInputRounds`. */
  | 'ERR_INPUT_ROUNDS_EXCEEDED'
  /** `structuredContent` is missing or does not match the tool's `outputSchema`. */
  | 'ERR_INVALID_STRUCTURED_CONTENT'
  /** The tool's `outputSchema` cannot be used to validate (e.g. an unresolved `$ref`). */
  | 'ERR_INVALID_OUTPUT_SCHEMA'
  /** A result must be checked against an `outputSchema` and the client has no `jsonSchema` validator (`LeanClient`). */
  | 'ERR_NO_JSON_SCHEMA_VALIDATOR'
  /** A page walker met a repeated cursor or exceeded its page limit. */
  | 'ERR_PAGINATION'
  /** The subscription could not be set up or ended before it was acknowledged. */
  | 'ERR_SUBSCRIPTION'
  /** `client.extend()` was given an extension id already registered. */
  | 'ERR_DUPLICATE_EXTENSION'
  /** `client.setRequestHandler()` for a method the client answers itself (use the `handlers` option). */
  | 'ERR_RESERVED_METHOD';

/**
 * An error the client raised itself (a protocol rule the server broke, a missing handler, a failed negotiation). Errors
 * the server answered with are `JsonRpcError`s (from `@mcpkit/jsonrpc-core`); refused calls to capabilities the server
 * did not declare are `CapabilityError`s (from `@mcpkit/protocol`).
 *
 * @example
 * ```ts
 * try {
 *   await client.callTool({ name: 'weather', arguments: { city: 'Paris' } });
 * } catch (error) {
 *   if (McpClientError.is(error) && error.code === 'ERR_INVALID_STRUCTURED_CONTENT') console.log(error.data);
 * }
 * ```
 */
export class McpClientError extends defineCodedError<McpClientErrorCode>(
  'McpClientError',
  '@mcpkit/client/McpClientError',
) {}
