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
import type { SharedState } from './cluster/shared-session';
import type { EventStore, StoredEvent } from './event-store';
import { HeaderGate } from './header-gate';
import { httpRefusalOf } from './http-refusal';
import {
  JsonCollector,
  jsonAnswer,
  type OutStream,
  parseEventId,
  replayInto,
  STANDALONE,
  type StreamSink,
} from './out-stream';
import { type Answer, jsonReply, reply } from './reply';
import { errorResponse } from './responses';
import { SSE_HEADERS, SseWriter } from './sse';

// One legacy-era Streamable HTTP session: the Transport its ServerSession talks through. Every POST that carries
// requests opens a response stream (SSE, or a JSON collector); a response, and every message sent with its
// `relatedRequestId`, goes on the stream of that request; everything else goes on the standalone GET stream. So each
// message travels on exactly one stream. With an event store, every SSE event has an id `<stream>-<seq>` and a
// client that lost a stream resumes it with GET + Last-Event-ID.
//
// Scale-out wraps a session rather than living in it: a copy of a shared session is given a `SessionRouting`
// (cluster/shared-routing.ts) that decides which messages cross to other instances; this file only asks it at the
// three points where a message may leave this copy (outbound, for the GET stream, inbound).

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

/** `SessionRouting.forGetStream`'s answer when the message belongs on this copy's own GET stream. */
export const DELIVER_HERE: unique symbol = Symbol('deliver here');

/**
 * @internal How a copy of a shared session (scale-out) routes messages between instances. A session of this process
 * alone has none.
 */
export interface SessionRouting {
  /** What this copy keeps of the shared session. */
  readonly shared: SharedState;
  /** This instance's id: the session's stream ids start with it, so another instance knows where a stream lives. */
  readonly instanceId: string;
  /** A message the server sends; writes it on this copy's streams through `session.routeHere` when it belongs here. */
  send(session: HttpSession, message: JsonRpcMessage, options: TransportSendOptions | undefined): void | Promise<void>;
  /** A message for the GET stream: sent to the instance that holds it, or `DELIVER_HERE`. */
  forGetStream(session: HttpSession, message: JsonRpcMessage): void | Promise<void> | typeof DELIVER_HERE;
  /** A client message that reached this copy: the message for this copy's peer, or `undefined` if it went elsewhere. */
  inbound(session: HttpSession, message: JsonRpcMessage): JsonRpcMessage | undefined;
  /** A client message another instance relayed here: as this copy's peer knows it. */
  relayed(message: JsonRpcMessage): JsonRpcMessage;
}

function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message);
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
  /** Scale-out: how this copy of a shared session routes between instances (`undefined` for a local session). */
  readonly #routing: SessionRouting | undefined;

  readonly #config: SessionConfig;
  #byRequest: Map<RequestId, OutStream> | undefined = undefined;
  #standalone: OutStream | undefined = undefined;
  #nextStream = 1;
  #seq = 0;
  #closed = false;
  /** Pending async store writes, so events stay in order when the store is asynchronous. */
  #tail: Promise<void> | undefined = undefined;

  constructor(sessionId: string, principal: string | undefined, config: SessionConfig, routing?: SessionRouting) {
    this.sessionId = sessionId;
    this.principal = principal;
    this.#config = config;
    this.lastActive = Date.now();
    this.#routing = routing;
    // Copies on several instances number their events independently: starting from the clock keeps a stream's events
    // increasing when its copy is made again (after eviction, or on the instance that took over as home).
    if (routing !== undefined) this.#seq = this.lastActive * 1000;
  }

  /** Scale-out: what this copy of a shared session keeps (`undefined` for a session of this process alone). */
  get shared(): SharedState | undefined {
    return this.#routing?.shared;
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
    const routing = this.#routing;
    return routing === undefined ? this.#route(message, options) : routing.send(this, message, options);
  }

  /** Writes a message on this copy's streams (the routing decided it belongs here, see `SessionRouting.send`). */
  routeHere(message: JsonRpcMessage, options?: TransportSendOptions): void | Promise<void> {
    if (this.#closed) return;
    return this.#route(message, options);
  }

  /**
   * Delivers a message another instance sent for the GET stream this copy keeps (it is the session's home). The
   * message is as the client will see it (request ids already say which instance sent them).
   */
  deliverFromCluster(message: JsonRpcMessage): void | Promise<void> {
    if (this.#closed) return;
    return this.#route(message, undefined, true);
  }

  #route(message: JsonRpcMessage, options?: TransportSendOptions, atHome = false): void | Promise<void> {
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
      if (this.#routing !== undefined && !atHome) {
        const sent = this.#routing.forGetStream(this, message);
        if (sent !== DELIVER_HERE) return sent;
      }
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
      const append = () => store.append(this.sessionId, stream.id, event);
      this.#tail = this.#tail.then(append, append);
    }
    const tail = this.#tail;
    // An event the store could not keep still goes to the client: it only cannot be replayed.
    const done = tail.then(deliver, (error: unknown) => {
      this.#config.onError(
        new Error(
          `Session ${this.sessionId}: event ${id} was sent but the event store could not keep it, so it cannot be replayed (${(error as Error)?.message ?? error})`,
          { cause: error },
        ),
      );
      deliver();
    });
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

  /**
   * A new stream id (for a POST stream). Unique in the session: in a cluster it starts with this instance's id, so
   * another instance can tell where a stream lives from a Last-Event-ID.
   */
  newStreamId(): string {
    const n = (this.#nextStream++).toString(36);
    const routing = this.#routing;
    return routing === undefined ? n : `${routing.instanceId}.${n}`;
  }

  /**
   * One POST's messages. Returns the HTTP response: 202, an SSE stream, or JSON. `streamId`: the id of its stream
   * when the caller needed it first (from `newStreamId`).
   */
  post(
    messages: readonly JsonRpcMessage[],
    info: MessageInfo,
    batch: boolean,
    streamId?: string,
  ): Answer | Promise<Answer> {
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
      for (const message of messages) this.#receive(message, info);
      return reply(202, headers);
    }
    this.#byRequest ??= new Map();
    const json = this.#config.json ? new JsonCollector() : undefined;
    const sink =
      json === undefined ? new SseWriter(this.#config.keepAliveMs, this.#config.maxBufferedBytes) : undefined;
    const stream: OutStream = {
      id: streamId ?? this.newStreamId(),
      sink,
      json,
      pending: requests,
      backlog: undefined,
      lastSeq: 0,
    };
    for (const message of messages) if ('method' in message && 'id' in message) this.#byRequest.set(message.id, stream);
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
    for (const message of messages) this.#receive(message, delivered);
    if (json !== undefined) {
      return json.done.then((responses) => jsonAnswer(responses, batch, headers));
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
      id: this.newStreamId(),
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

  /** A client message: in a cluster, answers and cancellations may concern another instance (the routing says). */
  #receive(message: JsonRpcMessage, info: MessageInfo): void {
    const routing = this.#routing;
    const here = routing === undefined ? message : routing.inbound(this, message);
    if (here !== undefined) this.#deliver(here, info);
  }

  /**
   * A message of the client that arrived on another instance and concerns this one: its answer to a request this
   * instance sent (the id as this instance's peer knows it), or a cancellation.
   */
  receiveFromCluster(message: JsonRpcMessage): void {
    if (this.#closed) return;
    this.#deliver(this.#routing === undefined ? message : this.#routing.relayed(message), {});
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
  #prime(sink: StreamSink, stream: OutStream): void {
    if (this.#config.eventStore === undefined) return;
    const seq = ++this.#seq;
    stream.lastSeq = seq;
    sink.event('', `${stream.id}-${seq.toString(36)}`, '', this.#config.retryMs);
  }

  #detach(stream: OutStream, sink: StreamSink): void {
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
    const sink = new SseWriter(this.#config.keepAliveMs, this.#config.maxBufferedBytes);
    const refused = await this.openStream(lastEventId, sink);
    return refused ?? new Response(sink.stream, { status: 200, headers: this.streamHeaders });
  }

  /** The headers of a GET stream's response. */
  get streamHeaders(): Record<string, string> {
    return { ...SSE_HEADERS, 'mcp-session-id': this.sessionId };
  }

  /**
   * Connects `sink` to the standalone stream (`lastEventId` null) or resumes a stream after `lastEventId` into it.
   * Resolves to `undefined` once it is connected, or to the refusal (409, 400) that answers the GET instead. In a
   * cluster the sink may forward to the instance that holds the client's GET.
   */
  async openStream(lastEventId: string | null, sink: StreamSink): Promise<Response | undefined> {
    this.lastActive = Date.now();
    if (lastEventId === null) {
      let stream = this.#standalone;
      // A client that already listens here is told so; in a cluster the open stream may forward to an instance that
      // is gone, so the new GET wins.
      if (stream?.sink?.open && this.shared === undefined) {
        return errorResponse(409, -32000, 'Conflict: this session already has an open GET stream');
      }
      stream ??= this.#openStandalone();
      this.#attach(stream, sink);
      this.#prime(sink, stream);
      return undefined;
    }
    const store = this.#config.eventStore;
    const parsed = parseEventId(lastEventId);
    if (store === undefined || parsed === undefined) {
      return errorResponse(400, -32000, `Bad Request: cannot resume from Last-Event-ID '${lastEventId}'`, {
        data: { lastEventId, resumable: store !== undefined },
      });
    }
    // In a cluster, the copy that takes over as home resumes the client's GET stream without having held it yet.
    const live =
      this.#findStream(parsed.streamId) ??
      (parsed.streamId === STANDALONE && this.shared !== undefined ? this.#openStandalone() : undefined);
    const lastSeq = await replayInto(sink, store, this.sessionId, parsed, live, () =>
      this.#config.onError(
        new Error(
          `Session ${this.sessionId}: some events after ${lastEventId} are no longer in the event store; the resumed stream has a gap`,
        ),
      ),
    );
    // Events numbered by another copy (the previous home) may be ahead of this copy's count.
    if (lastSeq > this.#seq) this.#seq = lastSeq;
    if (live === undefined || (live.pending === 0 && live.id !== STANDALONE)) {
      sink.close();
      return undefined;
    }
    const backlog = live.backlog ?? [];
    live.backlog = undefined;
    for (const event of backlog) if (event.seq > lastSeq) sink.event(event.data, event.id);
    this.#attach(live, sink);
    return undefined;
  }

  #openStandalone(): OutStream {
    this.#standalone = { id: STANDALONE, sink: undefined, json: undefined, pending: 0, backlog: undefined, lastSeq: 0 };
    return this.#standalone;
  }

  #findStream(streamId: string): OutStream | undefined {
    if (streamId === STANDALONE) return this.#standalone;
    if (this.#byRequest !== undefined) {
      for (const stream of this.#byRequest.values())
        if (stream.id === streamId && stream.json === undefined) return stream;
    }
    return undefined;
  }

  #attach(stream: OutStream, sink: StreamSink): void {
    const previous = stream.sink;
    // A client that reconnects wins over a connection it may have abandoned half-open.
    if (previous !== undefined) {
      stream.sink = undefined;
      previous.close();
    }
    stream.sink = sink;
    sink.onCancel = () => this.#detach(stream, sink);
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
    // A copy of a shared session that closes here leaves its events to the other instances.
    if (this.shared === undefined || this.shared.endEverywhere) {
      try {
        await this.#config.eventStore?.deleteSession(this.sessionId);
      } catch (error) {
        this.#config.onError(error as Error);
      }
    }
    this.#config.onClosed(this);
    if (this.#receiver !== undefined) this.#receiver.transportClosed();
    else this.onclose?.();
  }
}
