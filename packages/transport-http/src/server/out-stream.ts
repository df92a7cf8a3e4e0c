import type { JsonRpcResponse } from '@mcpkit/jsonrpc-core';
import type { EventStore, StoredEvent } from './event-store';
import type { HeaderGate } from './header-gate';
import { httpRefusalOf } from './http-refusal';
import { type Answer, jsonReply, reply } from './reply';
import { errorResponse } from './responses';

/**
 * Where a legacy session's stream writes its events: an `SseWriter` (the client's connection here), or a sink that
 * forwards them to the instance holding the client's connection (scale-out).
 */
export interface StreamSink {
  readonly open: boolean;
  /** Whether it closed because its client did not read (see `SseWriter`). */
  readonly overflowed: boolean;
  /** Runs once when the client goes away (never after `close()`). */
  onCancel: (() => void) | undefined;
  event(data: string, id?: string, event?: string, retryMs?: number): void;
  close(): void;
}

/** JSON response mode: where the responses of one POST collect until every request of it is answered. */
export class JsonCollector {
  readonly responses: JsonRpcResponse[] = [];
  /** The responses once every request is answered; `undefined` when the session ended first. */
  readonly done: Promise<JsonRpcResponse[] | undefined>;
  #resolve!: (responses: JsonRpcResponse[] | undefined) => void;

  constructor() {
    this.done = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  finish(): void {
    this.#resolve(this.responses);
  }

  abort(): void {
    this.#resolve(undefined);
  }
}

/** One stream of a legacy session: the GET stream, or the response stream of one POST. */
export interface OutStream {
  /** Unique within the session; "0" is the standalone GET stream. */
  readonly id: string;
  sink: StreamSink | undefined;
  /** JSON mode: where responses collect until every request of the POST is answered. */
  readonly json: JsonCollector | undefined;
  /** Requests of this stream still unanswered. */
  pending: number;
  /** Set while a resumed connection replays from an async store: live events wait here. */
  backlog: { data: string; id: string; seq: number }[] | undefined;
  /** The `seq` of this stream's latest event (or priming event): the `previousSeq` of its next one. */
  lastSeq: number;
  /** Set while a one-request POST holds its headers (see {@link HeaderGate}). */
  gate?: HeaderGate<Answer> | undefined;
}

/** The id of the standalone GET stream. */
export const STANDALONE = '0';

/** Splits an SSE event id (`<stream>-<seq in base 36>`) into its stream and `seq`. */
export function parseEventId(id: string): { streamId: string; seq: number } | undefined {
  const dash = id.lastIndexOf('-');
  if (dash <= 0) return undefined;
  const seq = Number.parseInt(id.slice(dash + 1), 36);
  return Number.isSafeInteger(seq) && seq >= 0 ? { streamId: id.slice(0, dash), seq } : undefined;
}

/** The answer of a POST in JSON mode once its requests are answered (`undefined`: the session ended first). */
export function jsonAnswer(
  responses: JsonRpcResponse[] | undefined,
  batch: boolean,
  headers: Record<string, string>,
): Answer {
  if (responses === undefined) return errorResponse(404, -32000, 'Session terminated before the response was ready');
  if (responses.length === 0) return reply(202, headers);
  const refusal = batch ? undefined : httpRefusalOf(responses[0]!);
  if (refusal !== undefined) return jsonReply(refusal.status, responses[0], { ...refusal.headers, ...headers });
  return jsonReply(200, batch ? responses : responses[0], headers);
}

/**
 * Writes the stored events of a stream after `from.seq` into `sink`, holding the live stream's new events meanwhile
 * in its `backlog` (the caller writes those after, skipping any the replay covered). Resolves to the `seq` of the last
 * event written; `onGap` hears of events the store no longer has.
 */
/**
 * The SSE event type that tells a client resuming with `Last-Event-ID` that some events after it are gone (evicted from
 * the event store): its data is `{"lastEventId": "<the id it resumed from>"}`.
 */
export const GAP_EVENT = 'mcpkit-gap';

export async function replayInto(
  sink: StreamSink,
  store: EventStore,
  sessionId: string,
  from: { streamId: string; seq: number },
  live: OutStream | undefined,
  onGap: () => void,
): Promise<number> {
  if (live !== undefined) live.backlog ??= [];
  let replayed: readonly StoredEvent[];
  try {
    replayed = await store.replayAfter(sessionId, from.streamId, from.seq);
  } catch (error) {
    if (live !== undefined) live.backlog = undefined;
    throw error;
  }
  let lastSeq = from.seq;
  let gap = replayed.length === 0 ? live === undefined || live.lastSeq > lastSeq : false;
  for (const event of replayed) {
    if (event.previousSeq > lastSeq) gap = true;
    sink.event(event.data, event.id);
    lastSeq = event.seq;
  }
  // Evicted by the store's retention policy (or the stream is unknown): the client gets what is left, and is told so by
  // an event of its own type (GAP_EVENT), which a client that does not know it ignores (only `message` events carry
  // JSON-RPC).
  if (gap) {
    sink.event(JSON.stringify({ lastEventId: `${from.streamId}-${from.seq.toString(36)}` }), undefined, GAP_EVENT);
    onGap();
  }
  return lastSeq;
}
