import type { LoggingLevel } from './types/logging.js';

/** The RFC 5424 levels MCP uses, least severe first. */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const satisfies readonly LoggingLevel[];

const severity: ReadonlyMap<string, number> = new Map(LOGGING_LEVELS.map((level, index) => [level, index]));

/**
 * Whether `value` is a logging level.
 *
 * @example
 * ```ts
 * isLoggingLevel('warning'); // true
 * isLoggingLevel('WARN'); // false
 * ```
 */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && severity.has(value);
}

/**
 * Whether a message at `level` passes a `threshold` (the level set by `logging/setLevel` or, in 2026-07-28, by the
 * request's `_meta["io.modelcontextprotocol/logLevel"]`). With no threshold in 2026-07-28 nothing is sent.
 *
 * @example
 * ```ts
 * isLevelEnabled('error', 'warning'); // true
 * isLevelEnabled('info', 'warning'); // false
 * ```
 */
export function isLevelEnabled(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return (severity.get(level) ?? 0) >= (severity.get(threshold) ?? 0);
}
