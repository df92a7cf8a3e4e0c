// The 2026-07-28 era on the server side: a request carries its own `_meta` envelope (version, client capabilities,
// client info, log level); asking the client is a Multi Round-Trip Request (the handler runs again with the answers,
// `requestState` carrying them between rounds); results are completed (`resultType`, `serverInfo`, cache hints); and
// changes reach the `subscriptions/listen` streams that asked for them.
import { INPUT_REQUIRED_METHODS, isLevelEnabled, type LoggingLevel, methodNotFoundError } from '@mcpkit/protocol';
import { type DispatchContext, type InputRoute, type RequestEra, ServerRequestContext } from '../session/context';
import { openSessionEra, type ServerSession, type SessionEra } from '../session/session';
import type { EraHost, EraStrategy } from './era-host';

/** The 2026-07-28 era's strategy. */
export class ModernEra implements EraStrategy, RequestEra, SessionEra {
  readonly era = 'modern' as const;
  readonly #host: EraHost;
  /** Asking the client: within the input round this run of the handler is in. */
  readonly inputRoute: InputRoute | undefined;

  constructor(host: EraHost) {
    this.#host = host;
    this.inputRoute = host.inputRounds?.inRound;
  }

  loggingDeclared(): boolean {
    return this.#host.loggingDeclared();
  }

  /** A handler's log goes out only when the request's envelope set a `logLevel`, at or above it. */
  logs(ctx: ServerRequestContext<object>, level: LoggingLevel): boolean {
    const threshold = ctx.logLevel;
    return threshold !== undefined && isLevelEnabled(level, threshold);
  }

  /** A log not tied to a request does not exist in 2026-07-28: log messages belong to the request that asked. */
  sessionLog(): Promise<void> {
    return Promise.resolve();
  }

  handle(
    method: string,
    params: Record<string, unknown> | undefined,
    dctx: DispatchContext,
    session: ServerSession | undefined,
  ): Promise<unknown> {
    const host = this.#host;
    const rules = host.rules;
    // 2026-07-28 has no initialize: on a connection its first request fixed to this era, say why (not only -32601).
    if (method === 'initialize' && session?.fixEra === true && session.era !== undefined) {
      throw methodNotFoundError(
        'initialize',
        `This connection speaks ${session.protocolVersion}, which has no initialize; the era is fixed by the first request`,
      );
    }
    const envelope = rules.modernEnvelope(params);
    const version = envelope.protocolVersion;
    // server/discover is how a dual-era client probes (2026-07-28 §2): if its answer comes too late, the client falls
    // back to initialize on the same connection, so the probe alone must not fix the era.
    if (session?.fixEra && session.era === undefined && method !== 'server/discover') {
      openSessionEra(session, this, version);
    }
    const handler = rules.gate(method, version, params, host.handler(method));
    const mayAsk = INPUT_REQUIRED_METHODS.has(method);
    const ctx = new ServerRequestContext(
      dctx,
      this,
      version,
      envelope.clientCapabilities,
      envelope.clientInfo,
      session,
      envelope.logLevel,
      mayAsk,
    );
    const rounds = host.inputRounds;
    if (!mayAsk || rounds === undefined) {
      const ran = host.run(ctx, dctx, () => handler(params as never, ctx));
      return Promise.resolve(ran).then((result) => rules.complete(method, result, false, ctx));
    }
    const retried = params!.requestState !== undefined || params!.inputResponses !== undefined;
    const ran = host.run(ctx, dctx, () => rounds.run(handler, params!, ctx, dctx));
    return Promise.resolve(ran).then((result) => rules.complete(method, result, retried, ctx));
  }

  listChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    const method = `notifications/${kind}/list_changed`;
    const key = `${kind}ListChanged` as 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';
    for (const stream of this.#host.streams) {
      if (stream.filter[key] === true) stream.send(method, {}).catch((error) => this.#host.report(error));
    }
  }
}
