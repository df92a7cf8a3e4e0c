import {
  type JsonRpcParams,
  JsonRpcPeer,
  type Middleware,
  type MiddlewareChain,
  type NotifyOptions,
  type PeerSettings,
  type RequestId,
  type RequestOptions,
  type Router,
} from '@mcpkit/jsonrpc-core';
import type { CapabilityPath, ClientCapabilities, Era, Implementation, LoggingLevel } from '@mcpkit/protocol';

/** A message the server is about to send: a notification, or a server→client request (legacy era). */
export interface OutboundMessage {
  readonly kind: 'notification' | 'request';
  /** May be replaced by a hook before it calls `next`. */
  method: string;
  /** May be replaced by a hook before it calls `next` (for example with trace context in `_meta`). */
  params: JsonRpcParams | undefined;
  /** The session it goes to; `undefined` for a stateless request's notifications. */
  readonly session: ServerSession | undefined;
  /** The inbound request it belongs to (progress, logs, asks), if any. */
  readonly relatedRequestId: RequestId | undefined;
}

/**
 * Around every outbound notification and server→client request (for logging and tracing). Call `next()` to send;
 * change `message.params` first to send something else (e.g. trace context in `params._meta`). For a request, `next`
 * resolves to the client's result. Not calling `next` drops a notification.
 *
 * @example
 * server.useOutbound(async (message, next) => {
 *   console.error('→', message.method);
 *   return next();
 * });
 */
export type OutboundHook = Middleware<OutboundMessage, unknown>;

/** Sends through the outbound hooks: they see the message, then `send` sends what they leave of it. */
export function sendOutbound<R>(
  hooks: MiddlewareChain<OutboundMessage, unknown>,
  kind: OutboundMessage['kind'],
  method: string,
  params: JsonRpcParams | undefined,
  session: ServerSession | undefined,
  relatedRequestId: RequestId | undefined,
  send: (method: string, params: JsonRpcParams | undefined) => Promise<R>,
): Promise<R> {
  const message: OutboundMessage = { kind, method, params, session, relatedRequestId };
  return hooks.run(message, (out) => send(out.method, out.params)) as Promise<R>;
}

/**
 * What a session needs of the server that owns it (`Server` is one): its shared router, where errors go, the outbound
 * hooks, what it declares, and being told when the connection closed.
 */
export interface SessionHost {
  readonly router: Router;
  onerror: ((error: Error) => void) | undefined;
  /**
   * The peer settings of a session with this request timeout (router, MCP hooks, timeouts), shared by every session
   * that asks for the same, so an idle session holds one reference for them.
   */
  peerSettings(requestTimeoutMs: number | undefined): PeerSettings;
  readonly outboundHooks: MiddlewareChain<OutboundMessage, unknown> | undefined;
  declares(path: CapabilityPath): boolean;
  /** @internal Called by a session once its connection closed. */
  forgetSession(session: ServerSession): void;
  /** Opens `session` in the legacy era with what it negotiated before (see `Server.restoreSession`). */
  restoreSession(session: ServerSession, negotiated: NegotiatedSession): void;
}

// One function for every session (the peer calls `onerror` on itself), instead of a closure per session.
function reportToServer(this: ServerSession, error: Error): void {
  this.server.onerror?.(error);
}

/** Options for `Server.connect`. */
export interface ConnectOptions {
  /**
   * Whether the first `initialize` or modern request fixes the era of this connection (stdio: one process, one era).
   * Default `true`. Pass `false` for a channel that may carry both eras.
   */
  fixEra?: boolean;
  /** Idle timeout for server→client requests (legacy era). Default 60 000 ms. */
  requestTimeoutMs?: number;
}

/**
 * What a legacy session negotiated, to open a session with it again: a session restored from a store (another
 * instance's, or this one's before a restart), or a stand-in for a connection that is gone (a resumed task). See
 * `Server.openSession` and `Server.restoreSession`.
 */
export interface NegotiatedSession {
  /** The legacy version `initialize` negotiated. */
  protocolVersion: string;
  /** What the client declared in `initialize`. Default `{}`. */
  clientCapabilities?: ClientCapabilities;
  clientInfo?: Implementation;
  /** The level set by `logging/setLevel`, if any. */
  logLevel?: LoggingLevel;
  /** Whether `notifications/initialized` arrived. Default `true`. */
  initialized?: boolean;
}

/**
 * What a session keeps of the era object that opened it (`eras/`): the era's name, and what the session does
 * differently in it when no request is running (a request's own behaviour is its context's).
 */
export interface SessionEra {
  readonly era: Era;
  /** `ServerSession.log`: a log message not tied to a request, in this era (legacy: honours `logging/setLevel`). */
  sessionLog(session: ServerSession, level: LoggingLevel, data: unknown, logger: string | undefined): Promise<void>;
}

// The one writer of a session's era and version. It is not exported from the package: only the era objects
// (`eras/`) open a session in an era, so what a session speaks is decided in one place.
let writeEra: (session: ServerSession, era: SessionEra, protocolVersion: string) => void;

/** Opens `session` in `era` at `protocolVersion`. For the era objects only (`eras/`), which pass themselves. */
export function openSessionEra(session: ServerSession, era: SessionEra, protocolVersion: string): void {
  writeEra(session, era, protocolVersion);
}

/**
 * One connection to a client: a jsonrpc-core peer over the server's shared router, plus what was negotiated on it.
 * Cheap by design: plain fields, no per-session handler tables.
 *
 * @example
 * const session = await server.connect(transport);
 * session.era; // 'legacy' after initialize, 'modern' after the first enveloped request, undefined before
 */
export class ServerSession extends JsonRpcPeer {
  /** The server this session belongs to. */
  readonly server: SessionHost;
  /** Whether the era is fixed by the first request (see `ConnectOptions.fixEra`). */
  readonly fixEra: boolean;
  #era: SessionEra | undefined = undefined;
  #protocolVersion: string | undefined = undefined;
  /** Legacy: the capabilities the client declared in `initialize`. */
  clientCapabilities: ClientCapabilities | undefined = undefined;
  /** Legacy: the client's `clientInfo` from `initialize`. */
  clientInfo: Implementation | undefined = undefined;
  /** Legacy: the level set by `logging/setLevel`. */
  logLevel: LoggingLevel | undefined = undefined;
  /** Legacy: whether `notifications/initialized` arrived. */
  initialized = false;

  static {
    writeEra = (session, era, protocolVersion) => {
      session.#era = era;
      session.#protocolVersion = protocolVersion;
    };
  }

  /** The era of this connection, once known. Set by the era that opened it (`initialize`, a fixed modern request). */
  get era(): Era | undefined {
    return this.#era?.era;
  }

  /** Legacy: the version `initialize` negotiated. Modern (fixed era): the version of the first request. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** @internal Use `server.connect(transport)` or `server.openSession(negotiated)`. */
  constructor(server: SessionHost, options: ConnectOptions = {}) {
    super({
      settings: server.peerSettings(options.requestTimeoutMs),
      onError: server.onerror === undefined ? undefined : reportToServer,
    });
    this.server = server;
    this.fixEra = options.fixEra ?? true;
  }

  /** Sends a notification to this client, through the server's outbound hooks when it has any. */
  override notify(method: string, params?: JsonRpcParams, options?: NotifyOptions): Promise<void> {
    const hooks = this.server.outboundHooks;
    if (hooks === undefined) return super.notify(method, params, options);
    return sendOutbound(hooks, 'notification', method, params, this, options?.relatedRequestId, (name, value) =>
      super.notify(name, value, options),
    ).then(() => undefined);
  }

  /** Sends a request to this client (legacy era), through the server's outbound hooks when it has any. */
  override request<R = unknown>(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<R> {
    const hooks = this.server.outboundHooks;
    if (hooks === undefined) return super.request<R>(method, params, options);
    return sendOutbound(hooks, 'request', method, params, this, options?.relatedRequestId, (name, value) =>
      super.request<R>(name, value, options),
    );
  }

  protected override connectionClosed(): void {
    this.server.forgetSession(this);
  }

  /**
   * Sends a log message not tied to a request (legacy era; honours `logging/setLevel`). Does nothing in the modern era,
   * where log messages belong to the request that asked for them.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const era = this.#era;
    return era === undefined ? Promise.resolve() : era.sessionLog(this, level, data, logger);
  }
}
