import { randomBytes } from 'node:crypto';
import { JsonRpcError, JsonRpcErrorCode } from '@mcpkit/jsonrpc-core';
import { INPUT_REQUIRED_METHODS, type InputRequest } from '@mcpkit/protocol';
import type { ServerRequestContext } from '@mcpkit/server';

/** How long a call waits, set aside, for the host's next input round before it is cancelled upstream. */
const ROUND_WAIT_MS = 10 * 60_000;
/** Calls waiting on the host at once (per upstream); past it the oldest is cancelled, so memory stays bounded. */
const MAX_WAITING_CALLS = 256;

/** An input request key of the bridge's own: names the call it belongs to, so a retry finds it again. */
const KEY = /^mcpkit-bridge-([A-Za-z0-9_-]{22})-\d+$/;

interface Question {
  readonly key: string;
  readonly request: InputRequest;
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * One request forwarded upstream, kept apart from the host request that started it. What the upstream asks back
 * (elicitation, sampling, roots) becomes a question to whichever host request drives the call now: a legacy host
 * answers it within the same request; a 2026-07-28 host gets `input_required` and retries with its answers, and the
 * retry drives the same upstream call on (found again by the keys of its answers) instead of sending it again, so the
 * remote tool runs once, not once per round.
 */
export class ForwardedCall {
  readonly id = randomBytes(16).toString('base64url');
  readonly #controller = new AbortController();
  readonly #waiting: WaitingCalls | undefined;
  readonly #questions = new Map<string, Question>();
  #ctx: ServerRequestContext;
  #asked = 0;
  #outcome: Outcome | undefined;
  #wake: (() => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `waiting`: where a call that asks is kept for the host's retry; none for a call nobody retries (a relay). */
  constructor(ctx: ServerRequestContext, waiting: WaitingCalls | undefined) {
    this.#ctx = ctx;
    this.#waiting = waiting;
  }

  /** Aborts the upstream request: the host cancelled, or never came back to answer. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The host request driving the call now: where progress and log messages go. */
  get ctx(): ServerRequestContext {
    return this.#ctx;
  }

  /** A question of the upstream for the host; resolves with the host's answer. */
  ask(request: InputRequest): Promise<unknown> {
    if (this.#controller.signal.aborted) return Promise.reject(this.#controller.signal.reason);
    return new Promise((resolve, reject) => {
      const key = `mcpkit-bridge-${this.id}-${++this.#asked}`;
      this.#questions.set(key, { key, request, resolve, reject });
      this.#waiting?.keep(this);
      this.#wake?.();
    });
  }

  /** The upstream answered (or failed): the host request driving the call gets it. */
  settle(outcome: Outcome): void {
    this.#outcome = outcome;
    this.#waiting?.forget(this);
    clearTimeout(this.#timer);
    this.#wake?.();
  }

  /** Cancels the upstream request and every question still open. */
  abort(reason: unknown): void {
    clearTimeout(this.#timer);
    this.#waiting?.forget(this);
    this.#controller.abort(reason);
    for (const question of this.#questions.values()) question.reject(reason);
    this.#questions.clear();
    this.#wake?.();
  }

  /**
   * Drives the call for one host request until the upstream answers: asks the host each open question (under the
   * bridge's key, so a 2026-07-28 retry's answers name this call). The host request being set aside for an input round
   * leaves the call running, waiting for the retry; cancelled outside a question, the call is cancelled upstream.
   */
  async drive(ctx: ServerRequestContext): Promise<unknown> {
    this.#ctx = ctx;
    clearTimeout(this.#timer);
    const asked = new Set<string>();
    const signal = ctx.signal;
    const onAbort = () => this.#wake?.();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        const outcome = this.#outcome;
        if (outcome !== undefined) {
          if (outcome.ok) return outcome.value;
          throw outcome.error;
        }
        if (signal.aborted) {
          // Aborted with a question out: a 2026-07-28 host was answered `input_required` (or a legacy host cancelled
          // while answering, and the question's rejection reaches the upstream). Either way the retry may still come.
          if (asked.size > 0) this.#setAside();
          else this.abort(signal.reason);
          throw signal.reason;
        }
        if (this.#controller.signal.aborted) throw this.#controller.signal.reason;
        for (const question of this.#questions.values()) {
          if (asked.has(question.key)) continue;
          asked.add(question.key);
          ctx.ask({ [question.key]: question.request }).then(
            (answers) => {
              asked.delete(question.key);
              if (this.#questions.delete(question.key)) question.resolve(answers[question.key]);
            },
            (error: unknown) => {
              asked.delete(question.key);
              if (this.#questions.delete(question.key)) question.reject(error);
            },
          );
        }
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** The questions not answered yet, by key (a translated task's `inputRequests`). */
  openQuestions(): Record<string, InputRequest> {
    const open: Record<string, InputRequest> = {};
    for (const question of this.#questions.values()) open[question.key] = question.request;
    return open;
  }

  /** Answers one open question (a translated task's `tasks/update`); false when `key` is not open. */
  answer(key: string, answer: unknown): boolean {
    const question = this.#questions.get(key);
    if (question === undefined) return false;
    this.#questions.delete(key);
    question.resolve(answer);
    return true;
  }

  /** How the upstream answered, once it did. */
  get outcome(): Outcome | undefined {
    return this.#outcome;
  }

  /** Resolves when a call nobody drives asks something or ends, or after `ms`. */
  changed(ms: number): Promise<void> {
    if (this.#outcome !== undefined || this.#questions.size > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Waits for the host's next round, for a while: a host that never comes back gets its call cancelled. */
  #setAside(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () =>
        this.abort(
          new JsonRpcError(
            JsonRpcErrorCode.InternalError,
            'The host did not answer the input request in time; the forwarded call was cancelled',
          ),
        ),
      ROUND_WAIT_MS,
    );
    this.#timer.unref?.();
  }
}

/** The calls that asked the host something, by id, so a 2026-07-28 retry finds its call again. Bounded. */
export class WaitingCalls {
  readonly #calls = new Map<string, ForwardedCall>();

  keep(call: ForwardedCall): void {
    if (this.#calls.has(call.id)) return;
    if (this.#calls.size >= MAX_WAITING_CALLS) {
      const [oldest] = this.#calls.values();
      oldest?.abort(
        new JsonRpcError(JsonRpcErrorCode.InternalError, 'Too many forwarded calls were waiting for the host'),
      );
    }
    this.#calls.set(call.id, call);
  }

  forget(call: ForwardedCall): void {
    if (this.#calls.get(call.id) === call) this.#calls.delete(call.id);
  }

  /** The call a retry's `inputResponses` answer, if it still runs (only requests with input rounds are retried). */
  resumed(method: string, params: Record<string, unknown> | undefined): ForwardedCall | undefined {
    if (!INPUT_REQUIRED_METHODS.has(method)) return undefined;
    const responses = params?.inputResponses;
    if (typeof responses !== 'object' || responses === null) return undefined;
    for (const key of Object.keys(responses)) {
      const id = KEY.exec(key)?.[1];
      const call = id === undefined ? undefined : this.#calls.get(id);
      if (call !== undefined) return call;
    }
    return undefined;
  }

  /** Cancels every waiting call (the bridge is closing). */
  abortAll(reason: unknown): void {
    for (const call of [...this.#calls.values()]) call.abort(reason);
  }
}
