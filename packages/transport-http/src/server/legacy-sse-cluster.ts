import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import type { BusMessage, BusUnsubscribe, MessageBus } from '@mcpkit/server';
import { errorResponse } from './responses';

// Scale-out of the 2024-11-05 HTTP+SSE transport: a session is its GET stream, on the instance that opened it (its id
// starts with that instance's id). A POST for it that lands on another instance is handed over the bus to that one,
// which delivers it and sends back the HTTP answer the POST gets (202, or a refusal), as if it had arrived there.

/** A POST handed to the instance that holds its session. */
export interface ForwardedPost {
  readonly sessionId: string;
  readonly text: string;
  readonly auth: AuthInfo | undefined;
  readonly url: string;
  readonly headers: Record<string, string>;
}

/** What the holding instance answers the POST with. */
export interface PostAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const PREFIX = 'mcpkit:sse:i:';

/** @internal One HTTP+SSE handler's part in a cluster. */
export class SseCluster {
  readonly instanceId: string;
  readonly ready: Promise<void>;
  readonly #bus: MessageBus;
  readonly #timeoutMs: number;
  readonly #onError: (error: Error) => void;
  readonly #waiting = new Map<string, (answer: PostAnswer | undefined) => void>();
  #receive: ((post: ForwardedPost) => Promise<PostAnswer>) | undefined;
  #unsubscribe: BusUnsubscribe | undefined;
  #next = 0;

  constructor(bus: MessageBus, instanceId: string, timeoutMs: number, onError: (error: Error) => void) {
    this.#bus = bus;
    this.instanceId = instanceId;
    this.#timeoutMs = timeoutMs;
    this.#onError = onError;
    this.ready = bus
      .subscribe(PREFIX + instanceId, (message) => this.#onMessage(message))
      .then((unsubscribe) => {
        this.#unsubscribe = unsubscribe;
      });
    this.ready.catch(() => undefined);
  }

  /** How this instance answers POSTs handed to it. */
  set receiver(receive: (post: ForwardedPost) => Promise<PostAnswer>) {
    this.#receive = receive;
  }

  /** The instance a session id says holds the session, or `undefined` for an id minted outside a cluster. */
  ownerOf(sessionId: string): string | undefined {
    const dot = sessionId.indexOf('.');
    return dot > 0 ? sessionId.slice(0, dot) : undefined;
  }

  /** A session id minted here: this instance's id, then the random part. */
  sessionIdOf(random: string): string {
    return `${this.instanceId}.${random}`;
  }

  /** Hands a POST to `owner` and answers with what it answered. */
  async forward(owner: string, post: ForwardedPost): Promise<Response> {
    const ref = (++this.#next).toString(36);
    const answer = new Promise<PostAnswer | undefined>((resolve) => this.#waiting.set(ref, resolve));
    let heard: boolean;
    try {
      heard = await this.#bus.publish(PREFIX + owner, { t: 'post', ref, from: this.instanceId, ...post });
    } catch (error) {
      this.#waiting.delete(ref);
      return errorResponse(503, -32000, `Service Unavailable: the message bus failed (${(error as Error).message})`, {
        headers: { 'retry-after': '1' },
      });
    }
    if (!heard) {
      this.#waiting.delete(ref);
      return errorResponse(
        404,
        -32000,
        'Session not found: the instance holding its stream is gone; open the SSE stream again',
      );
    }
    const timer = setTimeout(() => this.#waiting.get(ref)?.(undefined), this.#timeoutMs);
    const answered = await answer;
    clearTimeout(timer);
    this.#waiting.delete(ref);
    if (answered === undefined) {
      return errorResponse(
        503,
        -32000,
        `Service Unavailable: instance ${owner} did not answer in ${this.#timeoutMs} ms`,
        {
          headers: { 'retry-after': '1' },
        },
      );
    }
    return new Response(answered.body === '' ? null : answered.body, {
      status: answered.status,
      headers: answered.headers,
    });
  }

  #onMessage(message: BusMessage): void {
    if (message.t === 'answer') {
      this.#waiting.get(String(message.ref))?.(message.answer as PostAnswer);
      return;
    }
    if (message.t !== 'post' || this.#receive === undefined) return;
    const post: ForwardedPost = {
      sessionId: String(message.sessionId),
      text: String(message.text),
      auth: message.auth as AuthInfo | undefined,
      url: String(message.url),
      headers: (message.headers as Record<string, string>) ?? {},
    };
    this.#receive(post).then(
      (answer) => this.#reply(String(message.from), String(message.ref), answer),
      (error: unknown) => {
        this.#onError(error as Error);
        this.#reply(String(message.from), String(message.ref), {
          status: 500,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } }),
        });
      },
    );
  }

  #reply(to: string, ref: string, answer: PostAnswer): void {
    this.#bus
      .publish(PREFIX + to, { t: 'answer', ref, answer: answer as unknown as BusMessage })
      .catch((error: unknown) => this.#onError(error as Error));
  }

  async close(): Promise<void> {
    for (const settle of this.#waiting.values()) settle(undefined);
    this.#waiting.clear();
    await this.#unsubscribe?.();
  }
}
