import type {
  JsonRpcMessage,
  JsonRpcRequest,
  JsonRpcResponse,
  MessageInfo,
  RequestId,
  Transport,
  TransportReceiver,
  TransportSendOptions,
} from '@mcpkit/jsonrpc-core';
import type { ServerSession } from '@mcpkit/server';
import type { EventStore, StoredEvent } from './event-store';
import { HeaderGate } from './header-gate';
import { httpRefusalOf } from './http-refusal';
import { type Answer, jsonReply, reply } from './reply';
import { errorResponse } from './responses';
import { SSE_HEADERS, SseWriter } from './sse';

// One legacy-era Streamable HTTP session: the Transport its ServerSession talks through. Every POST that carries
// requests opens a response stream (SSE, or a JSON collector); a response, and every message sent with its
// `relatedRequestId`, goes on the stream of that request; everything else goes on the standalone GET stream. So each
// message travels on exactly one stream. With an event store, every SSE event has an id `<stream>-<seq>` and a
// client that lost a stream resumes it with GET + Last-Event-ID.

/** What every session of one handler shares (kept out of the session object so an idle session stays small). */
export interface SessionConfig {
  readonly eventStore: EventStore | undefined;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  /** Per SSE stream: what may wait for a client that does not read (see SseWriter). */
  readonly maxBufferedBytes: number;
  readonly json: boolean;
  readonly onClosed: (session: HttpSession) => void;
  readonly onError: (error: Error) => void;
}

interface OutStream {
  /** Unique within the session; "0" is the standalone GET stream. */
  readonly id: string;
  sink: SseWriter | undefined;
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

class JsonCollector {
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

const STANDALONE = '0';

function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message);
}

function parseEventId(id: string): { streamId: string; seq: number } | undefined {
  const dash = id.lastIndexOf('-');
  if (dash <= 0) return undefined;
  const seq = Number.parseInt(id.slice(dash + 1), 36);
  return Number.isSafeInteger(seq) && seq >= 0 ? { streamId: id.slice(0, dash), seq } : undefined;
}

/** @internal A legacy-era HTTP session (created by the handler at `initialize`). */
export class HttpSession implements Transport {
  readonly sessionId: string;
  readonly principal: string | undefined;
  /**
   * When the session last saw a request or delivered an event (ms since epoch); idle expiry reads it. An open stream
   * that carries nothing does not count.
   */
  lastActive: number;
  peer: ServerSession | undefined = undefined;
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;
  /** The peer's connection, when it takes the receiver path (no slot closures per session). */
  #receiver: TransportReceiver | undefined = undefined;

  readonly #config: SessionConfig;
  #byRequest: Map<RequestId, OutStream> | undefined = undefined;
  #standalone: OutStream | undefined = undefined;
  #nextStream = 1;
  #seq = 0;
  #closed = false;
  /** Pending async store writes, so events stay in order when the store is asynchronous. */
  #tail: Promise<void> | undefined = undefined;

  constructor(sessionId: string, principal: string | undefined, config: SessionConfig) {
    this.sessionId = sessionId;
    this.principal = principal;
    this.#config = config;
    this.lastActive = Date.now();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Whether a client connection is open on this session (it is not idle then). */
  get connected(): boolean {
    if (this.#standalone?.sink?.open) return true;
    if (this.#byRequest !== undefined)
      for (const stream of this.#byRequest.values()) if (stream.sink?.open) return true;
    return false;
  }

  attachReceiver(receiver: TransportReceiver): void {
    this.#receiver = receiver;
  }

  async start(): Promise<void> {}

  // ------------------------------------------------------------------ outbound (server → client)

  send(message: JsonRpcMessage, options?: TransportSendOptions): void | Promise<void> {
    if (this.#closed) throw new Error(`HTTP session ${this.sessionId} is closed`);
    let stream: OutStream | undefined;
    const response = isResponse(message);
    if (response) {
      const id = message.id;
      stream = id === null ? undefined : this.#byRequest?.get(id);
      if (stream === undefined) return; // answered after the client cancelled it: nobody waits
    } else if (options?.relatedRequestId !== undefined) {
      stream = this.#byRequest?.get(options.relatedRequestId);
    }
    if (stream?.json !== undefined) {
      if (response) {
        stream.json.responses.push(message);
        this.#settle(stream, message.id as RequestId);
        return;
      }
      // A JSON response cannot carry notifications; a request may still reach the client on the GET stream.
      if (!('id' in message)) return;
      stream = undefined;
    }
    const gate = stream?.gate;
    if (gate !== undefined && !gate.settled) {
      const refusal = response ? httpRefusalOf(message as JsonRpcResponse) : undefined;
      if (refusal !== undefined) {
        // Refused before its handler ran: the POST answers with the refusal's own status; nothing goes on a stream.
        gate.refuse(jsonReply(refusal.status, message, { ...refusal.headers, 'mcp-session-id': this.sessionId }));
        this.#settle(stream!, (message as JsonRpcResponse).id as RequestId);
        return;
      }
      gate.open();
    }
    if (stream === undefined) {
      stream = this.#standalone;
      if (stream === undefined) {
        if ('id' in message) {
          throw new Error(
            `Cannot send '${(message as { method: string }).method}' to the client: it has no open stream for it (open the GET stream)`,
          );
        }
        return; // an unrelated notification while the client listens nowhere: nothing to deliver it on
      }
    }
    return this.#write(stream, message, response ? (message.id as RequestId) : undefined);
  }

  #write(stream: OutStream, message: JsonRpcMessage, answers: RequestId | undefined): void | Promise<void> {
    const data = JSON.stringify(message);
    const store = this.#config.eventStore;
    if (store === undefined) {
      this.#deliverEvent(stream, data, undefined);
      if (answers !== undefined) this.#settle(stream, answers);
      return;
    }
    const seq = ++this.#seq;
    const id = `${stream.id}-${seq.toString(36)}`;
    const previousSeq = stream.lastSeq;
    stream.lastSeq = seq;
    const deliver = () => {
      if (stream.backlog !== undefined) stream.backlog.push({ data, id, seq });
      else this.#deliverEvent(stream, data, id);
      if (answers !== undefined) this.#settle(stream, answers);
    };
    const event: StoredEvent = { id, seq, previousSeq, data };
    if (this.#tail === undefined) {
      const stored = store.append(this.sessionId, stream.id, event);
      if (stored === undefined) return deliver();
      this.#tail = stored;
    } else {
      this.#tail = this.#tail.then(() => store.append(this.sessionId, stream.id, event));
    }
    const tail = this.#tail;
    const done = tail.then(deliver);
    tail.then(
      () => {
        if (this.#tail === tail) this.#tail = undefined;
      },
      () => {
        if (this.#tail === tail) this.#tail = undefined;
      },
    );
    return done;
  }

  /** Writes an event to the stream's connection, if it has one; an event that goes out is activity. */
  #deliverEvent(stream: OutStream, data: string, id: string | undefined): void {
    const sink = stream.sink;
    if (sink === undefined || !sink.open) return;
    sink.event(data, id);
    this.lastActive = Date.now();
  }

  /** One request of `stream` is answered (or cancelled): the stream ends when none is left. */
  #settle(stream: OutStream, requestId: RequestId): void {
    if (this.#byRequest?.get(requestId) !== stream) return;
    this.#byRequest.delete(requestId);
    if (--stream.pending > 0) return;
    if (stream.json !== undefined) {
      stream.json.finish();
      return;
    }
    stream.gate?.open();
    // Its events stay in the store: written is not received, and the client may still resume this stream.
    const sink = stream.sink;
    stream.sink = undefined;
    if (sink?.open) sink.close();
  }

  // ------------------------------------------------------------------ inbound (client → server)

  /** One POST's messages. Returns the HTTP response: 202, an SSE stream, or JSON. */
  post(messages: readonly JsonRpcMessage[], info: MessageInfo, batch: boolean): Answer | Promise<Answer> {
    this.lastActive = Date.now();
    const headers = { 'mcp-session-id': this.sessionId };
    let requests = 0;
    for (const message of messages) {
      if ('method' in message && 'id' in message) {
        if (this.#byRequest?.has(message.id)) {
          return errorResponse(409, -32600, `Request id ${JSON.stringify(message.id)} is already in flight`, {
            id: message.id,
          });
        }
        requests++;
      }
    }
    if (requests === 0) {
      for (const message of messages) this.#deliver(message, info);
      return reply(202, headers);
    }
    this.#byRequest ??= new Map();
    const json = this.#config.json ? new JsonCollector() : undefined;
    const stream: OutStream = {
      id: (this.#nextStream++).toString(36),
      sink: json === undefined ? new SseWriter(this.#config.keepAliveMs, this.#config.maxBufferedBytes) : undefined,
      json,
      pending: requests,
      backlog: undefined,
      lastSeq: 0,
    };
    for (const message of messages) if ('method' in message && 'id' in message) this.#byRequest.set(message.id, stream);
    const sink = stream.sink;
    let delivered = info;
    if (sink !== undefined) {
      sink.onCancel = () => this.#detach(stream, sink);
      this.#prime(sink, stream);
      if (!batch && requests === 1) {
        // One request: hold the headers until it is accepted, so a refusal can still be an HTTP status.
        const gate = new HeaderGate<Answer>();
        stream.gate = gate;
        delivered = { ...info, onAccepted: () => gate.open() };
      }
    }
    for (const message of messages) this.#deliver(message, delivered);
    if (json !== undefined) {
      return json.done.then((responses) => {
        if (responses === undefined)
          return errorResponse(404, -32000, 'Session terminated before the response was ready');
        if (responses.length === 0) return reply(202, headers);
        const refusal = batch ? undefined : httpRefusalOf(responses[0]!);
        if (refusal !== undefined) return jsonReply(refusal.status, responses[0], { ...refusal.headers, ...headers });
        return jsonReply(200, batch ? responses : responses[0], headers);
      });
    }
    const gate = stream.gate;
    const streaming = reply(200, { ...SSE_HEADERS, ...headers }, undefined, sink);
    if (gate === undefined) return streaming;
    return gate.answer.then((refused) => {
      stream.gate = undefined;
      return refused ?? streaming;
    });
  }

  /**
   * Runs one request and hands back its response message instead of writing it anywhere (the handler uses it for
   * `initialize`, whose outcome decides whether the session exists at all). `undefined` if the session closed first.
   */
  exchange(message: JsonRpcRequest, info: MessageInfo): Promise<JsonRpcResponse | undefined> {
    this.#byRequest ??= new Map();
    const json = new JsonCollector();
    const stream: OutStream = {
      id: (this.#nextStream++).toString(36),
      sink: undefined,
      json,
      pending: 1,
      backlog: undefined,
      lastSeq: 0,
    };
    this.#byRequest.set(message.id, stream);
    this.#deliver(message, info);
    return json.done.then((responses) => {
      // `initialize` is most sessions' only exchange: an idle session keeps no empty map behind.
      if (this.#byRequest?.size === 0) this.#byRequest = undefined;
      return responses?.[0];
    });
  }

  /** Whether requests of the client are in flight (then the session is not idle, however long they run). */
  get busy(): boolean {
    return this.#byRequest !== undefined && this.#byRequest.size > 0;
  }

  #deliver(message: JsonRpcMessage, info: MessageInfo): void {
    if (this.#receiver !== undefined) this.#receiver.receiveMessage(message, info);
    else this.onmessage?.(message, info);
    // A cancelled legacy request gets no response: end its share of the stream instead of waiting forever.
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const target = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof target === 'string' || typeof target === 'number') {
        const stream = this.#byRequest?.get(target);
        if (stream !== undefined) this.#settle(stream, target);
      }
    }
  }

  /** The priming event: an id (and retry) before anything else, so a client can resume even an empty stream. */
  #prime(sink: SseWriter, stream: OutStream): void {
    if (this.#config.eventStore === undefined) return;
    const seq = ++this.#seq;
    stream.lastSeq = seq;
    sink.event('', `${stream.id}-${seq.toString(36)}`, '', this.#config.retryMs);
  }

  #detach(stream: OutStream, sink: SseWriter): void {
    if (stream.sink !== sink) return;
    stream.sink = undefined;
    if (sink.overflowed) {
      this.#config.onError(
        new Error(
          `Session ${this.sessionId}: SSE stream ${stream.id} closed, its client read nothing while ${this.#config.maxBufferedBytes} bytes waited (maxBufferedBytes); it may resume with Last-Event-ID`,
        ),
      );
    }
  }

  /** GET: the standalone stream, or the resumption of any stream after `Last-Event-ID`. */
  async get(lastEventId: string | null): Promise<Response> {
    this.lastActive = Date.now();
    const headers = { ...SSE_HEADERS, 'mcp-session-id': this.sessionId };
    if (lastEventId === null) {
      let stream = this.#standalone;
      if (stream?.sink?.open) {
        return errorResponse(409, -32000, 'Conflict: this session already has an open GET stream');
      }
      stream ??= this.#standalone = {
        id: STANDALONE,
        sink: undefined,
        json: undefined,
        pending: 0,
        backlog: undefined,
        lastSeq: 0,
      };
      const sink = this.#attach(stream);
      this.#prime(sink, stream);
      return new Response(sink.stream, { status: 200, headers });
    }
    const store = this.#config.eventStore;
    const parsed = parseEventId(lastEventId);
    if (store === undefined || parsed === undefined) {
      return errorResponse(400, -32000, `Bad Request: cannot resume from Last-Event-ID '${lastEventId}'`, {
        data: { lastEventId, resumable: store !== undefined },
      });
    }
    const live = this.#findStream(parsed.streamId);
    const sink = new SseWriter(this.#config.keepAliveMs, this.#config.maxBufferedBytes);
    // Live events wait while the store replays, then go out after it, skipping any the replay already covered.
    if (live !== undefined) live.backlog ??= [];
    let replayed: readonly StoredEvent[];
    try {
      replayed = await store.replayAfter(this.sessionId, parsed.streamId, parsed.seq);
    } catch (error) {
      if (live !== undefined) live.backlog = undefined;
      throw error;
    }
    let lastSeq = parsed.seq;
    let gap = replayed.length === 0 ? live === undefined || live.lastSeq > lastSeq : false;
    for (const event of replayed) {
      if (event.previousSeq > lastSeq) gap = true;
      sink.event(event.data, event.id);
      lastSeq = event.seq;
    }
    if (gap) {
      // Evicted by the store's retention policy (or the stream is unknown): the client gets what is left.
      this.#config.onError(
        new Error(
          `Session ${this.sessionId}: some events after ${lastEventId} are no longer in the event store; the resumed stream has a gap`,
        ),
      );
    }
    if (live === undefined || (live.pending === 0 && live.id !== STANDALONE)) {
      sink.close();
      return new Response(sink.stream, { status: 200, headers });
    }
    const backlog = live.backlog ?? [];
    live.backlog = undefined;
    for (const event of backlog) if (event.seq > lastSeq) sink.event(event.data, event.id);
    this.#attach(live, sink);
    return new Response(sink.stream, { status: 200, headers });
  }

  #findStream(streamId: string): OutStream | undefined {
    if (streamId === STANDALONE) return this.#standalone;
    if (this.#byRequest !== undefined) {
      for (const stream of this.#byRequest.values())
        if (stream.id === streamId && stream.json === undefined) return stream;
    }
    return undefined;
  }

  #attach(stream: OutStream, sink = new SseWriter(this.#config.keepAliveMs, this.#config.maxBufferedBytes)): SseWriter {
    const previous = stream.sink;
    // A client that reconnects wins over a connection it may have abandoned half-open.
    if (previous !== undefined) {
      stream.sink = undefined;
      previous.close();
    }
    stream.sink = sink;
    sink.onCancel = () => this.#detach(stream, sink);
    return sink;
  }

  /**
   * Closes the SSE stream carrying `requestId` without ending the request (SSE polling, SEP-1699): the client
   * reconnects after `retry` with Last-Event-ID and gets everything sent meanwhile. False when there is no such
   * open stream or no event store (closing would lose messages).
   */
  closeRequestStream(requestId: RequestId): boolean {
    const stream = this.#byRequest?.get(requestId);
    if (stream?.sink === undefined || this.#config.eventStore === undefined) return false;
    const sink = stream.sink;
    stream.sink = undefined;
    sink.close();
    return true;
  }

  /** Closes the standalone GET stream (the client may reconnect with Last-Event-ID). */
  closeStandaloneStream(): boolean {
    const stream = this.#standalone;
    if (stream?.sink === undefined) return false;
    const sink = stream.sink;
    stream.sink = undefined;
    sink.close();
    return true;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const streams = new Set<OutStream>(this.#byRequest?.values());
    if (this.#standalone !== undefined) streams.add(this.#standalone);
    this.#byRequest?.clear();
    for (const stream of streams) {
      stream.gate?.open();
      if (stream.json !== undefined) {
        stream.json.abort();
      } else {
        const sink = stream.sink;
        stream.sink = undefined;
        sink?.close();
      }
    }
    try {
      await this.#config.eventStore?.deleteSession(this.sessionId);
    } catch (error) {
      this.#config.onError(error as Error);
    }
    this.#config.onClosed(this);
    if (this.#receiver !== undefined) this.#receiver.transportClosed();
    else this.onclose?.();
  }
}
