import {
  type AuthInfo,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type MessageInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
  validateMessage,
} from '@mcpkit/jsonrpc-core';
import { type McpToolServer, type MessageBus, type Server, serverOf } from '@mcpkit/server';
import type { HandleExtra } from './handler';
import { HeaderGate } from './header-gate';
import { httpRefusalOf } from './http-refusal';
import { type ForwardedPost, type PostAnswer, SseCluster } from './legacy-sse-cluster';
import { remoteAddressOf } from './raw-body';
import { checkContentType, DEFAULT_MAX_BODY_BYTES, parseErrorResponse, readBodyText } from './request-checks';
import { requestInfoOf } from './request-info';
import { errorResponse, jsonResponse, methodNotAllowed } from './responses';
import { type HostOriginOptions, HostOriginPolicy } from './security';
import { isWellFormedSessionId, mintSessionId } from './session-id';
import { DEFAULT_MAX_BUFFERED_BYTES, SSE_HEADERS, SseWriter } from './sse';

// The 2024-11-05 HTTP+SSE transport, for clients that predate Streamable HTTP: GET opens an SSE stream whose first
// event (`endpoint`) names the URL to POST messages to; everything the server sends travels on that one stream.

/** Options for {@link createSseHandler}. */
export interface SseHandlerOptions extends HostOriginOptions {
  /** The URL (absolute, or relative to the stream's) clients POST to. `?sessionId=…` is appended. Default `/messages`. */
  endpoint?: string;
  /** Largest POST body accepted. Default 4 MiB. */
  maxBodyBytes?: number;
  /** SSE keep-alive comment interval in ms; 0 turns them off. Default 15 000. */
  keepAliveMs?: number;
  /**
   * What the stream may hold for a client that does not read it; past it the stream is closed (which ends the
   * session: 2024-11-05 has no resumption). Default 1 MiB.
   */
  maxBufferedBytes?: number;
  /** At most this many open streams. Default 10 000. */
  maxSessions?: number;
  /**
   * At most this many open streams per client (its principal, else `clientKeyOf`, else the remote address the node
   * adapter saw), so one client cannot take all of `maxSessions`. Default 1 000.
   */
  maxSessionsPerClient?: number;
  /** Who an unauthenticated client is, for `maxSessionsPerClient` (as the Streamable HTTP handler's option). */
  clientKeyOf?: (request: Request) => string | undefined;
  /**
   * Who owns a session: a POST carrying another identity than the one that opened the stream gets 404. Default:
   * `clientId` and `subject` of the `AuthInfo`, or the token when it has neither (as the Streamable HTTP handler).
   */
  principalOf?: (auth: AuthInfo) => string | undefined;
  /**
   * Scale-out: the bus every instance shares. A session lives on the instance that opened its stream (its id says
   * which); a POST that lands on another instance is handed to that one over the bus and answered as if it had
   * arrived there. No sticky sessions needed.
   */
  bus?: MessageBus;
  /** Scale-out: this instance's name on the bus (letters, digits, `_`, `-`). Default: random. */
  instanceId?: string;
  /** Scale-out: how long a POST handed to another instance waits for its answer (then 503). Default 5 000 ms. */
  remoteTimeoutMs?: number;
}

/** The legacy HTTP+SSE endpoints as one web-standard handler: GET opens a stream, POST delivers a message. */
export interface SseHandler {
  handle(request: Request, extra?: HandleExtra): Promise<Response>;
  readonly sessionCount: number;
  close(): Promise<void>;
}

class SseSessionTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  #closed = false;
  /** POSTs holding their 202 until their request is accepted (so a refusal can answer the POST itself). */
  readonly #gates = new Map<RequestId, HeaderGate<Response>>();

  constructor(
    readonly sessionId: string,
    readonly principal: string | undefined,
    readonly sink: SseWriter,
    readonly onClosed: () => void,
  ) {}

  async start(): Promise<void> {}

  send(message: JsonRpcMessage, options?: TransportSendOptions): void {
    if (this.#closed || !this.sink.open) throw new Error(`SSE session ${this.sessionId} is closed`);
    const response = !('method' in message);
    const related = response ? (message as JsonRpcResponse).id : options?.relatedRequestId;
    const gate = related === undefined || related === null ? undefined : this.#gates.get(related);
    if (gate !== undefined) {
      const refusal = response ? httpRefusalOf(message as JsonRpcResponse) : undefined;
      if (refusal !== undefined && !gate.settled) {
        // Refused before its handler ran: the POST answers with the refusal's status; nothing goes on the stream.
        this.#gates.delete(related!);
        gate.refuse(
          new Response(JSON.stringify(message), {
            status: refusal.status,
            headers: { ...refusal.headers, 'content-type': 'application/json' },
          }),
        );
        return;
      }
      gate.open();
    }
    this.sink.event(JSON.stringify(message));
  }

  /** Holds the POST of request `id` until it is accepted or something is sent for it. */
  hold(id: RequestId): HeaderGate<Response> {
    const gate = new HeaderGate<Response>();
    this.#gates.set(id, gate);
    return gate;
  }

  /** Lets the POST of request `id` answer 202 now (its request was cancelled). */
  open(id: RequestId): void {
    this.#gates.get(id)?.open();
  }

  /** The POST of request `id` answered: stop holding it. */
  release(id: RequestId): void {
    this.#gates.delete(id);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const gate of this.#gates.values()) gate.open();
    this.#gates.clear();
    this.sink.close();
    this.onClosed();
    this.onclose?.();
  }
}

function defaultPrincipal(auth: AuthInfo): string | undefined {
  if (auth.clientId === undefined && auth.subject === undefined) return `token:${auth.token}`;
  return `${auth.clientId ?? ''}\u0000${auth.subject ?? ''}`;
}

/**
 * Serves old (2024-11-05) HTTP+SSE clients. Mount it at both the stream path (GET, e.g. `/sse`) and the endpoint
 * path (POST, `/messages`); the method decides what it does. Each stream is one session of the same server, owned by
 * the identity that opened it (`extra.auth` of the GET): POSTs from anyone else get 404.
 *
 * @example
 * const sse = createSseHandler(server, { endpoint: '/messages' });
 * // GET /sse and POST /messages → sse.handle(request)
 *
 * @example
 * // Behind bearer auth (@mcpkit/middleware), with per-tool scopes:
 * mcp.use(bearer.middleware); // per-tool scopes: a refusal answers the POST with 403
 * const sse = bearer.protect(createSseHandler(mcp));
 */
export function createSseHandler(server: McpToolServer | Server, options: SseHandlerOptions = {}): SseHandler {
  const core = serverOf(server);
  const policy = new HostOriginPolicy(options);
  const endpoint = options.endpoint ?? '/messages';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const maxSessions = options.maxSessions ?? 10_000;
  const maxPerClient = options.maxSessionsPerClient ?? 1_000;
  /** Open streams per client key (only sessions with a key are counted). */
  const perClient = new Map<string, number>();
  const principalOf = options.principalOf ?? defaultPrincipal;
  const sessions = new Map<string, SseSessionTransport>();
  let closed = false;
  const cluster =
    options.bus === undefined
      ? undefined
      : new SseCluster(
          options.bus,
          options.instanceId ??
            mintSessionId()
              .slice(0, 8)
              .replace(/[^A-Za-z0-9]/g, 'x'),
          options.remoteTimeoutMs ?? 5_000,
          (error) => core.onerror?.(error),
        );

  const open = async (request: Request, auth: AuthInfo | undefined): Promise<Response> => {
    const principal = auth === undefined ? undefined : principalOf(auth);
    const address = principal === undefined ? (options.clientKeyOf?.(request) ?? remoteAddressOf(request)) : undefined;
    const clientKey =
      principal !== undefined ? `principal:${principal}` : address === undefined ? undefined : `address:${address}`;
    const full = sessions.size >= maxSessions;
    if (full || (clientKey !== undefined && (perClient.get(clientKey) ?? 0) >= maxPerClient)) {
      const detail = full
        ? `too many sessions (${maxSessions})`
        : `this client already has ${maxPerClient} sessions (maxSessionsPerClient); close some first`;
      return errorResponse(503, -32000, `Service Unavailable: ${detail}`, {
        data: { limit: full ? 'maxSessions' : 'maxSessionsPerClient' },
        headers: { 'retry-after': '5' },
      });
    }
    const sessionId = cluster === undefined ? mintSessionId() : cluster.sessionIdOf(mintSessionId());
    const sink = new SseWriter(keepAliveMs, maxBufferedBytes);
    if (clientKey !== undefined) perClient.set(clientKey, (perClient.get(clientKey) ?? 0) + 1);
    const transport = new SseSessionTransport(sessionId, principal, sink, () => {
      if (!sessions.delete(sessionId) || clientKey === undefined) return;
      const left = (perClient.get(clientKey) ?? 1) - 1;
      if (left > 0) perClient.set(clientKey, left);
      else perClient.delete(clientKey);
    });
    sessions.set(sessionId, transport);
    const peer = await core.connect(transport, { fixEra: true });
    sink.onCancel = () => {
      void peer.close();
    };
    const separator = endpoint.includes('?') ? '&' : '?';
    sink.event(`${endpoint}${separator}sessionId=${encodeURIComponent(sessionId)}`, undefined, 'endpoint');
    return new Response(sink.stream, { status: 200, headers: SSE_HEADERS });
  };

  const post = async (request: Request, auth: AuthInfo | undefined): Promise<Response> => {
    const sessionId = new URL(request.url).searchParams.get('sessionId');
    if (sessionId === null) return errorResponse(400, -32000, 'Bad Request: the sessionId query parameter is missing');
    const transport = isWellFormedSessionId(sessionId) ? sessions.get(sessionId) : undefined;
    const owner = transport === undefined && cluster !== undefined ? cluster.ownerOf(sessionId) : undefined;
    if (owner !== undefined && owner !== cluster!.instanceId) {
      // The session's stream is on another instance: hand the POST over.
      const refused = checkContentType(request);
      if (refused !== undefined) return refused;
      const text = await readBodyText(request, maxBodyBytes);
      if (typeof text !== 'string') return text;
      await cluster!.ready;
      const headers: Record<string, string> = {};
      for (const [name, value] of request.headers) headers[name] = value;
      return cluster!.forward(owner, { sessionId, text, auth, url: request.url, headers });
    }
    if (transport === undefined || transport.principal !== (auth === undefined ? undefined : principalOf(auth))) {
      return errorResponse(404, -32000, 'Session not found: open the SSE stream again');
    }
    const refused = checkContentType(request);
    if (refused !== undefined) return refused;
    const text = await readBodyText(request, maxBodyBytes);
    if (typeof text !== 'string') return text;
    const info: MessageInfo =
      auth === undefined ? { request: requestInfoOf(request) } : { auth, request: requestInfoOf(request) };
    return deliver(transport, text, info);
  };

  /** A POST's body to its session: 202 once accepted, or the refusal that answers the POST. */
  const deliver = async (transport: SseSessionTransport, text: string, info: MessageInfo): Promise<Response> => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return parseErrorResponse((error as Error).message);
    }
    const checked = validateMessage(value);
    if (!checked.ok) return jsonResponse(400, checked.error);
    const message = checked.message;
    if (!('method' in message && 'id' in message)) {
      transport.onmessage?.(message, info);
      // A cancelled request gets no response: its POST, if still held, is answered now.
      if ('method' in message && message.method === 'notifications/cancelled') {
        const target = (message.params as { requestId?: unknown } | undefined)?.requestId;
        if (typeof target === 'string' || typeof target === 'number') transport.open(target);
      }
      return new Response('Accepted', { status: 202 });
    }
    // A request: the 202 waits until the server accepted it, so a refusal (a 403 for step-up) answers this POST.
    const gate = transport.hold(message.id);
    transport.onmessage?.(message, { ...info, onAccepted: () => gate.open() });
    const gateAnswer = await gate.answer;
    transport.release(message.id);
    return gateAnswer ?? new Response('Accepted', { status: 202 });
  };

  if (cluster !== undefined) {
    cluster.receiver = async (forwarded: ForwardedPost): Promise<PostAnswer> => {
      const transport = sessions.get(forwarded.sessionId);
      const auth = forwarded.auth;
      const answer =
        transport === undefined || transport.principal !== (auth === undefined ? undefined : principalOf(auth))
          ? errorResponse(404, -32000, 'Session not found: open the SSE stream again')
          : await deliver(transport, forwarded.text, {
              ...(auth === undefined ? {} : { auth }),
              request: { url: forwarded.url, headers: forwarded.headers },
            });
      const headers: Record<string, string> = {};
      for (const [name, value] of answer.headers) headers[name] = value;
      return { status: answer.status, headers, body: await answer.text() };
    };
  }

  return {
    async handle(request, extra) {
      if (closed) return errorResponse(503, -32000, 'Service Unavailable: the endpoint is shut down');
      const denied = policy.check(request);
      if (denied !== undefined) return denied;
      if (request.method === 'GET') return open(request, extra?.auth);
      if (request.method === 'POST') return post(request, extra?.auth);
      return methodNotAllowed('GET, POST', `${request.method} is not part of HTTP+SSE`);
    },
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      closed = true;
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await cluster?.close();
    },
  };
}
