// @mcpkit/store-redis: scale-out on Redis. Every instance of a server shares legacy sessions, resumable events,
// requestState nonces and a message bus; the task store and the rate-limit store are on ./tasks and ./rate-limit.

export { RedisEventStore, type RedisEventStoreOptions } from './event-store';
export { RedisMessageBus, type RedisMessageBusOptions } from './message-bus';
export { RedisNonceStore, type RedisNonceStoreOptions } from './nonce-store';
export { RedisSessionStore, type RedisSessionStoreOptions } from './session-store';
export { REDIS_UNAVAILABLE_CODE, type RedisUnavailableData, redisUnavailable } from './unavailable';
