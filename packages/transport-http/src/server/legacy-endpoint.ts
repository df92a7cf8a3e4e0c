import {
  type AuthInfo,
  JsonRpcErrorCode,
  type JsonRpcMessage,
  type JsonRpcRequest,
  validateMessage,
} from '@mcpkit/jsonrpc-core';
import { isModernVersion } from '@mcpkit/protocol';
import type { ServerSession } from '@mcpkit/server';
import { type ClusterLink, restoreState, unavailableResponse } from './cluster/cluster-link';
import type { SessionRecord } from './cluster/session-store';
import { SharedRouting } from './cluster/shared-routing';
import { type EndpointContext, notifyServer } from './endpoint-context';
import type { EventStore } from './event-store';
import { HttpSession, type SessionConfig } from './http-session';
import { remoteAddressOf } from './raw-body';
import { type Answer, jsonReply, type Reply, reply } from './reply';
import { checkGetAccept } from './request-checks';
import { requestInfoOf } from './request-info';
import { errorResponse, jsonResponse, methodNotAllowed } from './responses';
import { isWellFormedSessionId, mintSessionId } from './session-id';
import { SessionTable } from './session-table';
import { formatEvent, SSE_HEADERS } from './sse';
import { runStateless } from './stateless';

// The legacy era (2024-11-05 … 2025-11-25) over Streamable HTTP: `initialize` mints a session, later POSTs carry
// `Mcp-Session-Id`, GET opens the standalone stream or resumes one, DELETE ends the session. With `sessions: false`
// every request stands alone. With a cluster link, sessions are shared by every instance (see cluster/).

const ASSUMED_LEGACY_VERSION = '2025-03-26';

/** @internal What the legacy endpoint is configured with. */
export interface LegacyEndpointOptions {
  readonly sessionsEnabled: boolean;
  readonly legacyVersions: ReadonlySet<string>;
  /** `Allow` of GET and DELETE answers: 'POST' when this endpoint serves no sessions. */
  readonly allow: string;
  readonly principalOf: (auth: AuthInfo) => string | undefined;
  readonly idleMs: number;
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
  /** Who a client is when it has no principal (default: the remote address the adapter saw). */
  readonly clientKeyOf: ((request: Request) => string | undefined) | undefined;
  readonly eventStore: EventStore | undefined;
  readonly retryMs: number;
  readonly cluster: ClusterLink | undefined;
}

/** What a 503 for a session limit tells the client to wait (s): sessions end when their clients close them. */
const SESSION_LIMIT_RETRY_AFTER_S = 5;

/** @internal The legacy era of one `createStreamableHttpHandler`. */
export class LegacyEndpoint {
  readonly sessions: SessionTable;
  readonly #context: EndpointContext;
  readonly #options: LegacyEndpointOptions;
  readonly #config: SessionConfig;
  readonly #cluster: ClusterLink | undefined;
  readonly #statelessSessions = new Map<string, ServerSession>();

  constructor(context: EndpointContext, options: LegacyEndpointOptions) {
    this.#context = context;
    this.#options = options;
    const cluster = options.cluster;
    this.#cluster = cluster;
    this.sessions = new SessionTable({
      idleMs: options.idleMs,
      maxSessions: options.maxSessions,
      maxSessionsPerClient: options.maxSessionsPerClient,
      onError: (error) => context.onError(error),
    });
    this.#config = {
      eventStore: options.eventStore,
      retryMs: options.retryMs,
      keepAliveMs: context.keepAliveMs,
      maxBufferedBytes: context.maxBufferedBytes,
      json: context.mode === 'json',
      onClosed: (session) => this.sessions.forget(session),
      onError: (error) => context.onError(error),
    };
    cluster?.bind({
      local: (sessionId) => this.sessions.get(sessionId),
      materialize: (record) => this.#materialize(record),
      dropLocal: (session, everywhere) => {
        if (session.shared !== undefined && everywhere) session.shared.endEverywhere = true;
        return this.sessions.end(session);
      },
      copies: () => this.sessions.values(),
      keepAliveMs: context.keepAliveMs,
      maxBufferedBytes: context.maxBufferedBytes,
      eventStore: options.eventStore,
    });
  }

  // ------------------------------------------------------------------ POST

  async post(request: Request, value: unknown, version: string | null, auth: AuthInfo | undefined): Promise<Answer> {
    if (version !== null && !this.#options.legacyVersions.has(version)) return this.unsupportedVersion(version);
    const assumed = version ?? ASSUMED_LEGACY_VERSION;
    const parsed = validateMessage(value, { allowBatch: assumed === '2025-03-26' });
    let messages: JsonRpcMessage[];
    if (parsed.batch !== undefined) {
      messages = [];
      for (const item of parsed.batch) {
        if (!item.ok) return jsonResponse(400, item.error);
        messages.push(item.message);
      }
    } else if (!parsed.ok) {
      return jsonResponse(400, parsed.error);
    } else {
      messages = [parsed.message];
    }
    const batch = parsed.batch !== undefined;
    const initialize = messages.find(
      (message): message is JsonRpcRequest => 'method' in message && message.method === 'initialize' && 'id' in message,
    );
    if (initialize !== undefined) {
      if (messages.length > 1) {
        return errorResponse(400, JsonRpcErrorCode.InvalidRequest, 'Invalid Request: initialize must be sent alone');
      }
      if (!this.#options.sessionsEnabled) return this.#stateless(request, initialize, undefined, auth);
      if (request.headers.get('mcp-session-id') !== null) {
        return errorResponse(
          400,
          JsonRpcErrorCode.InvalidRequest,
          'Bad Request: initialize starts a new session; send it without an Mcp-Session-Id header',
          { id: initialize.id },
        );
      }
      return this.#initialize(request, initialize, auth);
    }
    if (!this.#options.sessionsEnabled) return this.#statelessLegacy(request, messages, batch, assumed, auth);
    const info = auth === undefined ? { request: requestInfoOf(request) } : { auth, request: requestInfoOf(request) };
    if (this.#cluster !== undefined) return this.#sharedPost(request, messages, batch, auth, info);
    const session = this.#sessionFor(request, auth);
    if (session instanceof Response) return session;
    return session.post(messages, info, batch);
  }

  /** A POST of a shared session: its copy here is made or refreshed first, and its expiry extended. */
  async #sharedPost(
    request: Request,
    messages: JsonRpcMessage[],
    batch: boolean,
    auth: AuthInfo | undefined,
    info: { auth?: AuthInfo; request: ReturnType<typeof requestInfoOf> },
  ): Promise<Answer> {
    const session = await this.#sharedSessionFor(request, auth);
    if (session instanceof Response) return session;
    const requests: (string | number)[] = [];
    for (const message of messages) if ('method' in message && 'id' in message) requests.push(message.id);
    // An SSE stream is recorded with its requests, so they can be answered if this instance dies running them.
    const streamId = requests.length > 0 && !this.#config.json ? session.newStreamId() : undefined;
    try {
      const alive = await this.#cluster!.touch(
        session,
        streamId === undefined ? undefined : { id: streamId, requests },
      );
      if (!alive) return sessionNotFound();
    } catch (error) {
      return unavailableResponse(error);
    }
    return session.post(messages, info, batch, streamId);
  }

  /** A notification without a session (legacy stateless mode), see {@link notifyServer}. */
  #notify(
    message: JsonRpcMessage & { method: string },
    auth: AuthInfo | undefined,
    request: Request,
    session: ServerSession,
  ): void {
    notifyServer(this.#context, message, auth, request, session);
  }

  unsupportedVersion(version: string): Response {
    const supported = [...this.#options.legacyVersions].sort().reverse();
    return errorResponse(
      400,
      -32000,
      `Bad Request: unsupported MCP-Protocol-Version '${version}' (supported: ${supported.join(', ')})`,
      { data: { supported, requested: version } },
    );
  }

  async #initialize(request: Request, message: JsonRpcRequest, auth: AuthInfo | undefined): Promise<Answer> {
    const principal = auth === undefined ? undefined : this.#options.principalOf(auth);
    const clientKey = this.#clientKey(request, principal);
    const room = this.sessions.hasRoom(clientKey);
    if (room !== true) {
      const detail =
        room === 'full'
          ? `too many sessions (${this.sessions.maxSessions})`
          : `this client already has ${this.sessions.maxSessionsPerClient} sessions (maxSessionsPerClient); close some first`;
      return errorResponse(503, -32000, `Service Unavailable: ${detail}`, {
        id: message.id,
        data: { limit: room === 'full' ? 'maxSessions' : 'maxSessionsPerClient' },
        headers: { 'retry-after': String(SESSION_LIMIT_RETRY_AFTER_S) },
      });
    }
    const cluster = this.#cluster;
    const sessionId = mintSessionId();
    const session = new HttpSession(
      sessionId,
      principal,
      this.#config,
      cluster === undefined ? undefined : this.#routing(cluster, newRecord(sessionId, principal, cluster.instanceId)),
    );
    await this.#connect(session, clientKey);
    const info = auth === undefined ? { request: requestInfoOf(request) } : { auth, request: requestInfoOf(request) };
    const response = await session.exchange(message, info);
    if (response === undefined) {
      return errorResponse(503, -32000, 'Service Unavailable: the session closed during initialize', {
        id: message.id,
      });
    }
    let headers: Record<string, string> | undefined;
    if ('error' in response && response.error !== undefined) {
      // A failed initialize leaves no session behind.
      await this.sessions.end(session);
    } else {
      if (cluster !== undefined) {
        // Stored before the client learns the id: its next request may land on any instance.
        const record = session.shared!.record;
        recordState(record, session.peer);
        try {
          await cluster.create(session);
        } catch (error) {
          await this.sessions.end(session);
          const refusal = unavailableResponse(error);
          return errorResponse(503, -32000, 'Service Unavailable: the session could not be stored; try again', {
            id: message.id,
            headers: { 'retry-after': refusal.headers.get('retry-after') ?? '1' },
            data: { reason: 'shared_state_unavailable', detail: (error as Error)?.message },
          });
        }
      }
      headers = { 'mcp-session-id': session.sessionId };
    }
    if (this.#config.json) return jsonReply(200, response, headers);
    return reply(
      200,
      headers === undefined ? SSE_HEADERS : { ...SSE_HEADERS, ...headers },
      formatEvent(JSON.stringify(response)),
    );
  }

  async #statelessLegacy(
    request: Request,
    messages: readonly JsonRpcMessage[],
    batch: boolean,
    version: string,
    auth: AuthInfo | undefined,
  ): Promise<Answer> {
    const session = this.#statelessSession(version);
    for (const message of messages) {
      if ('method' in message && !('id' in message)) this.#notify(message, auth, request, session);
    }
    const requests = messages.filter((message): message is JsonRpcRequest => 'method' in message && 'id' in message);
    if (requests.length === 0) return reply(202);
    if (!batch) return this.#stateless(request, requests[0]!, session, auth);
    // A 2025-03-26 batch without a session: run them together and answer one JSON array.
    const bodies = await Promise.all(
      requests.map(async (message) => {
        const response = await runStateless({
          server: this.#context.server,
          message,
          auth,
          requestInfo: requestInfoOf(request),
          session,
          mode: 'json',
          keepAliveMs: 0,
          maxBufferedBytes: this.#context.maxBufferedBytes,
          era: 'legacy',
          request,
        });
        return response.status === 200 && response.body !== undefined ? JSON.parse(response.body) : undefined;
      }),
    );
    return jsonReply(
      200,
      bodies.filter((body) => body !== undefined),
    );
  }

  #stateless(
    request: Request,
    message: JsonRpcRequest,
    session: ServerSession | undefined,
    auth: AuthInfo | undefined,
  ): Promise<Reply> {
    const context = this.#context;
    return runStateless({
      server: context.server,
      message,
      auth,
      requestInfo: requestInfoOf(request),
      session,
      mode: context.mode,
      keepAliveMs: context.keepAliveMs,
      maxBufferedBytes: context.maxBufferedBytes,
      era: 'legacy',
      request,
    });
  }

  /**
   * The stand-in session of legacy stateless mode, one per protocol version: it carries the version and no client
   * capabilities, is never connected, and so gets no broadcasts.
   */
  #statelessSession(version: string): ServerSession {
    let session = this.#statelessSessions.get(version);
    if (session === undefined) {
      session = this.#context.server.openSession({ protocolVersion: version }, { fixEra: true });
      this.#statelessSessions.set(version, session);
    }
    return session;
  }

  // ------------------------------------------------------------------ GET and DELETE

  async get(request: Request, auth: AuthInfo | undefined): Promise<Answer> {
    const refused = this.#legacyOnly(request, 'GET');
    if (refused !== undefined) return refused;
    const notAcceptable = checkGetAccept(request);
    if (notAcceptable !== undefined) return notAcceptable;
    const lastEventId = request.headers.get('last-event-id');
    const cluster = this.#cluster;
    if (cluster === undefined) {
      const session = this.#sessionFor(request, auth);
      if (session instanceof Response) return session;
      return session.get(lastEventId);
    }
    const session = await this.#sharedSessionFor(request, auth);
    if (session instanceof Response) return session;
    try {
      if (!(await cluster.touch(session))) return sessionNotFound();
      const producer = cluster.producerOf(session, lastEventId);
      if (producer === cluster.instanceId) return await session.get(lastEventId);
      return await cluster.openRemote(session, lastEventId, producer);
    } catch (error) {
      return unavailableResponse(error);
    }
  }

  async delete(request: Request, auth: AuthInfo | undefined): Promise<Answer> {
    const refused = this.#legacyOnly(request, 'DELETE');
    if (refused !== undefined) return refused;
    const cluster = this.#cluster;
    if (cluster === undefined) {
      const session = this.#sessionFor(request, auth);
      if (session instanceof Response) return session;
      await this.sessions.end(session);
      return reply(200);
    }
    const session = await this.#sharedSessionFor(request, auth);
    if (session instanceof Response) return session;
    try {
      await cluster.endEverywhere(session);
    } catch (error) {
      return unavailableResponse(error);
    }
    return reply(200);
  }

  /** GET and DELETE exist only for legacy sessions: 405 in 2026-07-28, in stateless mode, or on a modern-only server. */
  #legacyOnly(request: Request, method: string): Response | undefined {
    const version = request.headers.get('mcp-protocol-version');
    // Era branch kept: HTTP routing by header before any body exists; the 2026-07-28 binding has no GET or DELETE.
    if (isModernVersion(version)) {
      return methodNotAllowed('POST', `2026-07-28 Streamable HTTP is POST only (no ${method})`);
    }
    if (this.#options.allow === 'POST') {
      return methodNotAllowed(
        'POST',
        this.#options.sessionsEnabled
          ? `this server speaks only 2026-07-28 (no ${method})`
          : `stateless mode has no ${method}`,
      );
    }
    if (version !== null && !this.#options.legacyVersions.has(version)) return this.unsupportedVersion(version);
    return undefined;
  }

  // ------------------------------------------------------------------ sessions

  #sessionFor(request: Request, auth: AuthInfo | undefined): HttpSession | Response {
    const id = request.headers.get('mcp-session-id');
    if (id === null) return sessionRequired();
    const session = isWellFormedSessionId(id) ? this.sessions.find(id) : undefined;
    if (session === 'expired') return errorResponse(404, -32000, 'Session not found: it expired; initialize again');
    if (session === undefined || session.closed || session.principal !== this.#principal(auth)) {
      return sessionNotFound();
    }
    return session;
  }

  /** The copy here of a shared session, made from the store when this instance has none. */
  async #sharedSessionFor(request: Request, auth: AuthInfo | undefined): Promise<HttpSession | Response> {
    const id = request.headers.get('mcp-session-id');
    if (id === null) return sessionRequired();
    if (!isWellFormedSessionId(id)) return sessionNotFound();
    let session: HttpSession | undefined;
    try {
      await this.#cluster!.ready;
      const local = this.sessions.find(id);
      // A copy idle here too long is only dropped: the session itself may be alive on other instances.
      session = local === 'expired' ? undefined : local;
      session ??= await this.#cluster!.find(id);
    } catch (error) {
      return unavailableResponse(error);
    }
    if (session === undefined || session.closed || session.principal !== this.#principal(auth)) {
      return sessionNotFound();
    }
    return session;
  }

  #principal(auth: AuthInfo | undefined): string | undefined {
    return auth === undefined ? undefined : this.#options.principalOf(auth);
  }

  /** A copy of a session another instance created: connected to the server, with the stored state. */
  /** Registers a new session copy and connects the server to it; a failed connect leaves nothing behind. */
  /** Whose share a new session counts against: its principal, else what `clientKeyOf` or the adapter says. */
  #clientKey(request: Request, principal: string | undefined): string | undefined {
    if (principal !== undefined) return `principal:${principal}`;
    const key = this.#options.clientKeyOf?.(request) ?? remoteAddressOf(request);
    return key === undefined ? undefined : `address:${key}`;
  }

  async #connect(session: HttpSession, clientKey?: string): Promise<ServerSession> {
    this.sessions.add(session, clientKey);
    try {
      session.peer = await this.#context.server.connect(session, { fixEra: true });
      return session.peer;
    } catch (error) {
      this.sessions.forget(session);
      throw error;
    }
  }

  /** How a copy of a shared session routes between instances: scale-out wraps the session, not lives in it. */
  #routing(cluster: ClusterLink, record: SessionRecord): SharedRouting {
    return new SharedRouting(cluster, { record, endEverywhere: false, stateful: undefined }, (error) =>
      this.#context.onError(error),
    );
  }

  async #materialize(record: SessionRecord): Promise<HttpSession> {
    const session = new HttpSession(
      record.sessionId,
      record.principal ?? undefined,
      this.#config,
      this.#routing(this.#cluster!, record),
    );
    restoreState(await this.#connect(session), record);
    return session;
  }

  async close(): Promise<void> {
    await this.sessions.endAll();
    await this.#cluster?.close();
  }
}

function sessionRequired(): Response {
  return errorResponse(400, -32000, 'Bad Request: Mcp-Session-Id header is required (send initialize first)');
}

function sessionNotFound(): Response {
  return errorResponse(404, -32000, 'Session not found: it expired, was deleted, or never existed; initialize again');
}

function newRecord(sessionId: string, principal: string | undefined, home: string): SessionRecord {
  return {
    sessionId,
    principal: principal ?? null,
    protocolVersion: '',
    clientCapabilities: {},
    resourceSubscriptions: [],
    initialized: false,
    home,
    createdAt: Date.now(),
    version: 1,
  };
}

/** Copies what `initialize` negotiated from the peer into the record to store. */
function recordState(record: SessionRecord, peer: ServerSession | undefined): void {
  if (peer === undefined) return;
  record.protocolVersion = peer.protocolVersion ?? '';
  record.clientCapabilities = peer.clientCapabilities ?? {};
  if (peer.clientInfo !== undefined) record.clientInfo = peer.clientInfo;
  if (peer.logLevel !== undefined) record.logLevel = peer.logLevel;
  record.initialized = peer.initialized;
}
