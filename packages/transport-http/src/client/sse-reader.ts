import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { HttpAnswer } from './http-exchange';

/** What {@link readSseStream} reports while it reads. */
export interface SseStreamHandlers {
  /** One complete event (`data` joined, `id` and `event` when sent). */
  onEvent: (event: EventSourceMessage) => void;
  /** The server's `retry:` field, in milliseconds. */
  onRetry?: (retryMs: number) => void;
}

// A server that never ends an event must not make the client buffer without bound.
const MAX_EVENT_BUFFER = 16 * 1024 * 1024;

/**
 * Reads a `text/event-stream` body to its end with eventsource-parser, handing each event over as it completes.
 * Resolves when the server ends the body, rejects when reading fails (a reset connection, or the request aborted).
 */
export function readSseStream(answer: HttpAnswer, handlers: SseStreamHandlers): Promise<void> {
  const parser = createParser({
    onEvent: handlers.onEvent,
    onRetry: handlers.onRetry,
    maxBufferSize: MAX_EVENT_BUFFER,
  });
  return answer.stream((text) => parser.feed(text));
}
