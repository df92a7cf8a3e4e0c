import { JsonRpcError } from '@mcpkit/jsonrpc-core';

/** `error.data` of the error a request gets when Redis cannot be reached. */
export interface RedisUnavailableData {
  reason: 'store_unavailable';
  /** What failed (the Redis client's message). */
  detail: string;
  /** For the HTTP transport: answer 503 with `Retry-After`. */
  httpStatus: 503;
  httpHeaders: { 'retry-after': string };
}

/** The JSON-RPC code of {@link redisUnavailable}: a server error (the -32000 range) meaning "try again shortly". */
export const REDIS_UNAVAILABLE_CODE = -32000;

/**
 * The error a store throws when Redis does not answer: a JSON-RPC error whose `data.httpStatus` makes the HTTP
 * transport answer 503 with `Retry-After` (on other transports it arrives as it is). The request can be sent again.
 */
export function redisUnavailable(error: unknown, what: string): JsonRpcError {
  const detail = (error as Error)?.message ?? String(error);
  const data: RedisUnavailableData = {
    reason: 'store_unavailable',
    detail,
    httpStatus: 503,
    httpHeaders: { 'retry-after': '1' },
  };
  return new JsonRpcError(
    REDIS_UNAVAILABLE_CODE,
    `Service Unavailable: ${what} could not reach Redis (${detail}); try again shortly`,
    data,
  );
}

/** Runs `work`, turning a Redis failure into {@link redisUnavailable} (errors that are already JSON-RPC pass). */
export async function guard<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (JsonRpcError.is(error)) throw error;
    throw redisUnavailable(error, what);
  }
}
