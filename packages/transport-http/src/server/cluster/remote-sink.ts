import type { MessageBus } from '@mcpkit/server';
import type { StreamSink } from '../out-stream';

/**
 * The sink of a stream whose client is connected to another instance: each event is published to that instance,
 * which writes it to the client's GET response (its proxy, keyed by `ref`). It closes when the other instance says
 * its client went away (`cancel`), or when publishing finds nobody there.
 */
export class RemoteSink implements StreamSink {
  onCancel: (() => void) | undefined = undefined;
  readonly overflowed = false;
  readonly #bus: MessageBus;
  readonly #topic: string;
  readonly #ref: string;
  readonly #done: () => void;
  readonly #onError: (error: Error) => void;
  #open = true;

  constructor(bus: MessageBus, topic: string, ref: string, done: () => void, onError: (error: Error) => void) {
    this.#bus = bus;
    this.#topic = topic;
    this.#ref = ref;
    this.#done = done;
    this.#onError = onError;
  }

  get open(): boolean {
    return this.#open;
  }

  event(data: string, id?: string, event?: string, retryMs?: number): void {
    if (!this.#open) return;
    this.#publish({ t: 'ev', ref: this.#ref, data, id, event, retry: retryMs });
  }

  close(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#done();
    this.#publish({ t: 'end', ref: this.#ref });
  }

  /** The client went away (its instance said so, or is gone). */
  cancel(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#done();
    this.onCancel?.();
  }

  #publish(message: Record<string, unknown>): void {
    this.#bus.publish(this.#topic, message).then(
      (heard) => {
        if (!heard) this.cancel();
      },
      (error: unknown) => {
        this.#onError(error as Error);
        this.cancel();
      },
    );
  }
}
