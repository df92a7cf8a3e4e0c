import { isJsonObject } from '@mcpkit/jsonrpc-core';
import type { EventStore } from '../event-store';
import type { HttpSession } from '../http-session';
import { parseEventId } from '../out-stream';
import { errorResponse } from '../responses';
import { SseWriter } from '../sse';
import type { SessionStore } from './session-store';

/** What {@link recoverDeadStream} needs. */
export interface DeadStream {
  readonly session: HttpSession;
  readonly store: SessionStore;
  readonly eventStore: EventStore | undefined;
  readonly lastEventId: string;
  /** The instance the stream lived on, now gone. */
  readonly instance: string;
  readonly keepAliveMs: number;
  readonly maxBufferedBytes: number;
}

/** `error.data.reason` of the error a request gets when the instance running it is gone. */
export const INSTANCE_GONE = 'instance_gone';

/**
 * A client resumes a POST stream whose instance is gone (it crashed or was stopped mid-call): it gets every event that
 * instance stored after its Last-Event-ID, then, for each request of the stream that was never answered, an error
 * response saying the request was lost and may be sent again, and the stream ends. Nothing the instance sent is lost;
 * what it never did is said so, instead of leaving the client waiting for a response that cannot come.
 */
export async function recoverDeadStream(dead: DeadStream): Promise<Response> {
  const { session, eventStore, lastEventId, instance } = dead;
  const parsed = parseEventId(lastEventId);
  if (eventStore === undefined || parsed === undefined) {
    return errorResponse(400, -32000, `Bad Request: cannot resume from Last-Event-ID '${lastEventId}'`, {
      data: { lastEventId, resumable: eventStore !== undefined },
    });
  }
  const [events, requests] = await Promise.all([
    eventStore.replayAfter(session.sessionId, parsed.streamId, 0),
    dead.store.streamRequests(session.sessionId, parsed.streamId),
  ]);
  const writer = new SseWriter(dead.keepAliveMs, dead.maxBufferedBytes);
  const answered = new Set<unknown>();
  for (const event of events) {
    const message = parseMessage(event.data);
    if (message !== undefined && !('method' in message) && 'id' in message) answered.add(message.id);
    if (event.seq > parsed.seq) writer.event(event.data, event.id);
  }
  for (const id of requests ?? []) {
    if (answered.has(id)) continue;
    const error = {
      jsonrpc: '2.0',
      id,
      error: {
        code: -32000,
        message: `The server instance running this request (${instance}) stopped before answering it; send the request again`,
        data: { reason: INSTANCE_GONE, instance },
      },
    };
    writer.event(JSON.stringify(error));
  }
  writer.close();
  return new Response(writer.stream, { status: 200, headers: session.streamHeaders });
}

function parseMessage(data: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(data) as unknown;
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
