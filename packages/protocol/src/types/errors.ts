import type { ClientCapabilities } from './capabilities.js';

/**
 * `error.data` of `MissingRequiredClientCapabilityError` (code -32021, 2026-07-28): the capabilities the request
 * needs that its `clientCapabilities` lacked. HTTP status 400.
 *
 * @example
 * ```ts
 * const data: MissingRequiredClientCapabilityErrorData = { requiredCapabilities: { elicitation: {} } };
 * ```
 */
export interface MissingRequiredClientCapabilityErrorData {
  requiredCapabilities: ClientCapabilities;
}

/**
 * `error.data` of `UnsupportedProtocolVersionError` (code -32022, 2026-07-28): the versions the server supports and
 * the one requested. The client picks a mutual version and retries. HTTP status 400.
 */
export interface UnsupportedProtocolVersionErrorData {
  supported: string[];
  requested: string;
}

/**
 * `error.data` this package attaches to a resource-not-found error (-32602 in 2026-07-28, -32002 before).
 */
export interface ResourceNotFoundErrorData {
  uri: string;
}
