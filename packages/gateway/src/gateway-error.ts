import { defineCodedError } from '@mcpkit/jsonrpc-core';

/**
 * What the gateway refuses locally: a name two mounts (or a mount and the server) would both expose, a namespace
 * mounted twice, a mount used after it was closed.
 *
 * @example
 * try { await gateway.mount('a', upstream); } catch (error) {
 *   if (GatewayError.is(error) && error.code === 'ERR_NAME_COLLISION') console.error(error.data);
 * }
 */
export class GatewayError extends defineCodedError<
  'ERR_NAME_COLLISION' | 'ERR_DUPLICATE_MOUNT' | 'ERR_MOUNT_CLOSED',
  Record<string, unknown>
>('GatewayError', '@mcpkit/gateway/GatewayError') {}
