// @mcpkit/middleware/logging: one structured record per request, on the server and on the client.

export type { AnyContext } from '../shared/request-facts';
export { type ConsoleJsonLoggerOptions, consoleJsonLogger, type Logger } from './logger';
export { type LoggingOptions, logging, type RequestRecord } from './logging';
export { createRedactor, DEFAULT_REDACTED_FIELDS, REDACTED } from './redact';
