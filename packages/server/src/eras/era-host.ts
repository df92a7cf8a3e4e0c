// What an era strategy needs of the server it serves (`Server` builds one for each of its two eras): the era rules,
// the method table, the middleware, what the server says about itself, and who is listening.
import type { Era, Implementation, ServerCapabilities } from '@mcpkit/protocol';
import type { InputRounds } from '../input/input-rounds';
import type { ListenStream } from '../listen/listen-stream';
import type { ServerRequestHandler } from '../server/handlers';
import type { DispatchContext, ServerRequestContext } from '../session/context';
import type { ServerSession } from '../session/session';
import type { EraRules } from './era-rules';

/** The server as its era strategies see it. */
export interface EraHost {
  readonly rules: EraRules;
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  /** The capabilities declared now. */
  capabilities(): ServerCapabilities;
  /** Whether `logging` is declared (read per request: registrations may add it). */
  loggingDeclared(): boolean;
  /** The handler of `method`, if one is registered. */
  handler(method: string): ServerRequestHandler<never> | undefined;
  /** How handlers ask the client (`ServerOptions.inputRounds`); none: every ask fails with ERR_INPUT_ROUNDS_OFF. */
  readonly inputRounds: InputRounds | undefined;
  /** Whether any middleware is installed. */
  hasMiddleware(): boolean;
  /** Runs `handler` inside the middleware (or straight away when there is none, or the request is internal). */
  run(ctx: ServerRequestContext, dctx: DispatchContext, handler: () => unknown): unknown;
  readonly sessions: ReadonlySet<ServerSession>;
  readonly streams: ReadonlySet<ListenStream>;
  declares(path: readonly string[]): boolean;
  /** Where failures nobody awaits go (`Server.onerror`). */
  report(error: unknown): void;
}

/**
 * One protocol era's behaviour on the server side, behind one object: how a request of the era is read and run
 * (envelope or session, version, gates, context, completion) and how the era's listeners hear about changes.
 */
export interface EraStrategy {
  readonly era: Era;
  /**
   * Reads, checks and runs one request of this era: its (completed) result, or a promise of it. What the checks refuse
   * may be thrown at once: the server's dispatcher, the one caller, turns it into a rejection (so no era wraps every
   * request in an async frame of its own).
   */
  handle(
    method: string,
    params: Record<string, unknown> | undefined,
    dctx: DispatchContext,
    session: ServerSession | undefined,
  ): unknown;
  /** Tells this era's listeners that a list changed (legacy sessions, or modern listen streams that asked). */
  listChanged(kind: 'tools' | 'prompts' | 'resources'): void;
}
