// The 2024-11-05 … 2025-11-25 era on the server side: a session negotiates its version with `initialize` and keeps
// what the client declared; a request runs with the session's version, capabilities and log level; asking the client
// is a real server→client request; and changes reach the sessions (list_changed when declared, resource updates to
// those that subscribed).
import { isJsonObject } from '@mcpkit/jsonrpc-core';
import { type InitializeResult, isLevelEnabled, type LoggingLevel } from '@mcpkit/protocol';
import type { InputRoute } from '../session/context';
import { type DispatchContext, type RequestEra, ServerRequestContext } from '../session/context';
import { type NegotiatedSession, openSessionEra, type ServerSession, type SessionEra } from '../session/session';
import type { EraHost, EraStrategy } from './era-host';
import { JsonInterner } from './interned';

/** The legacy era's strategy. */
export class LegacyEra implements EraStrategy, RequestEra, SessionEra {
  readonly era = 'legacy' as const;
  readonly #host: EraHost;
  /** What sessions declared in `initialize`, shared between the sessions that declared the same. */
  readonly #interned = new JsonInterner();
  /** Asking the client: a server→client request now. */
  readonly inputRoute: InputRoute | undefined;

  constructor(host: EraHost) {
    this.#host = host;
    this.inputRoute = host.inputRounds?.byRequest;
  }

  loggingDeclared(): boolean {
    return this.#host.loggingDeclared();
  }

  /** A handler's log goes out at or above the session's `logging/setLevel` (read now: it may change mid-request). */
  logs(ctx: ServerRequestContext<object>, level: LoggingLevel): boolean {
    const threshold = ctx.session?.logLevel ?? ctx.logLevel;
    return threshold === undefined || isLevelEnabled(level, threshold);
  }

  /** A log not tied to a request goes to the session, at or above its `logging/setLevel` (everything until set). */
  async sessionLog(session: ServerSession, level: LoggingLevel, data: unknown, logger: string | undefined) {
    if (!this.#host.declares(['logging'])) return;
    if (session.logLevel !== undefined && !isLevelEnabled(level, session.logLevel)) return;
    await session.notify('notifications/message', logger === undefined ? { level, data } : { level, data, logger });
  }

  handle(
    method: string,
    params: Record<string, unknown> | undefined,
    dctx: DispatchContext,
    session: ServerSession | undefined,
  ): unknown {
    const host = this.#host;
    if (method === 'initialize') return this.#opening(dctx, params, session, () => this.#initialize(params, session));
    const version = session?.protocolVersion;
    if (version === undefined || session?.era !== 'legacy') {
      if (method === 'ping' && host.rules.legacyVersions.length > 0)
        return this.#opening(dctx, params, session, () => ({}));
      throw host.rules.uninitializedError(method, params);
    }
    const handler = host.rules.gate(method, version, params, host.handler(method));
    const ctx = new ServerRequestContext(
      dctx,
      this,
      version,
      session.clientCapabilities ?? {},
      session.clientInfo,
      session,
      session.logLevel,
      false,
    );
    return host.run(ctx, dctx, () => handler(params as never, ctx));
  }

  /**
   * Opens `session` in the legacy era with what was negotiated (by `initialize` now, or earlier: a session restored
   * from a store, a stand-in for one that is gone).
   */
  open(session: ServerSession, negotiated: NegotiatedSession): void {
    openSessionEra(session, this, negotiated.protocolVersion);
    session.clientCapabilities = this.#interned.intern(negotiated.clientCapabilities ?? {});
    session.clientInfo = negotiated.clientInfo === undefined ? undefined : this.#interned.intern(negotiated.clientInfo);
    session.logLevel = negotiated.logLevel;
    session.initialized = negotiated.initialized ?? true;
  }

  listChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    const host = this.#host;
    if (!host.declares([kind, 'listChanged'])) return;
    const method = `notifications/${kind}/list_changed`;
    for (const session of host.sessions) {
      if (session.era === 'legacy' && session.protocolVersion !== undefined) {
        session.notify(method).catch((error) => host.report(error));
      }
    }
  }

  /**
   * Answers `initialize` (or a `ping` before it) with `answer`, through the middleware when there is any: its context
   * is what the client says it speaks.
   */
  #opening(
    dctx: DispatchContext,
    params: Record<string, unknown> | undefined,
    session: ServerSession | undefined,
    answer: () => unknown,
  ): unknown {
    const host = this.#host;
    if (!host.hasMiddleware()) return answer();
    const requested = params?.protocolVersion;
    const ctx = new ServerRequestContext(
      dctx,
      this,
      typeof requested === 'string' ? requested : (host.rules.legacyVersions[0] ?? ''),
      isJsonObject(params?.capabilities) ? (params!.capabilities as never) : {},
      isJsonObject(params?.clientInfo) ? (params!.clientInfo as never) : undefined,
      session,
      undefined,
      false,
    );
    return host.run(ctx, dctx, answer);
  }

  #initialize(params: Record<string, unknown> | undefined, session: ServerSession | undefined): InitializeResult {
    const host = this.#host;
    const version = host.rules.negotiateInitialize(params);
    if (session !== undefined) {
      this.open(session, {
        protocolVersion: version,
        clientCapabilities: params!.capabilities as never,
        clientInfo: isJsonObject(params!.clientInfo) ? (params!.clientInfo as never) : undefined,
        initialized: false,
      });
    }
    const result: InitializeResult = {
      protocolVersion: version,
      capabilities: host.capabilities(),
      serverInfo: host.serverInfo,
    };
    if (host.instructions !== undefined) result.instructions = host.instructions;
    return result;
  }
}
