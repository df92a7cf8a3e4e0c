import { createParser, type EventSourceMessage } from 'eventsource-parser';

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
 * Resolves when the server ends the body, rejects when reading fails (a reset connection, or `signal` aborted).
 */
export async function readSseStream(body: ReadableStream<Uint8Array>, handlers: SseStreamHandlers): Promise<void> {
  const parser = createParser({
    onEvent: handlers.onEvent,
    onRetry: handlers.onRetry,
    maxBufferSize: MAX_EVENT_BUFFER,
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    const rest = decoder.decode();
    if (rest !== '') parser.feed(rest);
  } finally {
    reader.releaseLock();
  }
}
