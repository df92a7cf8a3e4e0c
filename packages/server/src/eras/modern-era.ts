// The 2026-07-28 era on the server side: a request carries its own `_meta` envelope (version, client capabilities,
// client info, log level); asking the client is a Multi Round-Trip Request (the handler runs again with the answers,
// `requestState` carrying them between rounds); results are completed (`resultType`, `serverInfo`, cache hints); and
// changes reach the `subscriptions/listen` streams that asked for them.
import { INPUT_REQUIRED_METHODS } from '@mcpkit/protocol';
import { type DispatchContext, ServerRequestContext } from '../session/context';
import { openSessionEra, type ServerSession } from '../session/session';
import type { EraHost, EraStrategy } from './era-host';

/** The 2026-07-28 era's strategy. */
export class ModernEra implements EraStrategy {
  readonly era = 'modern' as const;
  readonly #host: EraHost;

  constructor(host: EraHost) {
    this.#host = host;
  }

  async handle(
    method: string,
    params: Record<string, unknown> | undefined,
    dctx: DispatchContext,
    session: ServerSession | undefined,
  ): Promise<unknown> {
    const host = this.#host;
    const rules = host.rules;
    const envelope = rules.modernEnvelope(method, params, session);
    const version = envelope.protocolVersion;
    // server/discover is how a dual-era client probes (2026-07-28 §2): if its answer comes too late, the client falls
    // back to initialize on the same connection, so the probe alone must not fix the era.
    if (session?.fixEra && session.era === undefined && method !== 'server/discover') {
      openSessionEra(session, 'modern', version);
    }
    const handler = rules.gate(method, version, params, host.handler(method));
    const mayAsk = INPUT_REQUIRED_METHODS.has(method);
    const ctx = new ServerRequestContext(
      dctx,
      'modern',
      version,
      envelope.clientCapabilities,
      envelope.clientInfo,
      session,
      envelope.logLevel,
      mayAsk,
      host,
    );
    const rounds = host.inputRounds;
    if (!mayAsk || rounds === undefined) {
      return rules.complete(method, await host.run(ctx, dctx, () => handler(params as never, ctx)), false);
    }
    const retried = params!.requestState !== undefined || params!.inputResponses !== undefined;
    const result = await host.run(ctx, dctx, () => rounds.run(handler, params!, ctx, dctx));
    return rules.complete(method, result, retried);
  }

  listChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    const method = `notifications/${kind}/list_changed`;
    const key = `${kind}ListChanged` as 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';
    for (const stream of this.#host.streams) {
      if (stream.filter[key] === true) stream.send(method, {}).catch((error) => this.#host.report(error));
    }
  }
}
