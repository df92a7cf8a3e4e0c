// @mcpkit/middleware/keep-alive: periodic ping in the legacy era, on the server and on the client.

export { keepAlive, keepClientAlive } from './keep-alive';
export { KeepAliveError, type KeepAliveErrorData } from './keep-alive-error';
export type { KeepAliveOptions } from './pinger';
