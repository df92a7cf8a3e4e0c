import { isJsonObject as isObject } from '@mcpkit/jsonrpc-core';
import type { BusMessage, BusUnsubscribe, MessageBus } from '@mcpkit/server';
import type { TaskRecord } from '../task-record';

/** The bus topic task servers of one deployment share. */
export const TASKS_TOPIC = 'mcpkit:tasks';

/** What another instance asks of the one running a task, or tells every instance. */
export interface TaskBusEvents {
  /** `tasks/cancel` arrived elsewhere: abort the handler if it runs here. */
  cancel(taskId: string): void;
  /** `tasks/update` arrived elsewhere: hand the answers to the handler if it runs here. */
  answer(taskId: string, responses: Record<string, unknown>): void;
  /** A task changed elsewhere: tell the listen streams held here that asked for it. */
  status(record: TaskRecord): void;
}

/**
 * Task servers of several instances sharing one store: a task runs on the instance that created it, and is read,
 * answered and cancelled from any. The store carries the record; this carries what the running handler must hear at
 * once (a cancel, answers) and status changes for listen streams held elsewhere. Each instance ignores its own
 * messages: it already acted on them.
 */
export class TaskBus {
  readonly ready: Promise<void>;
  readonly #bus: MessageBus;
  readonly #instance: string;
  readonly #onError: (error: Error) => void;
  #unsubscribe: BusUnsubscribe | undefined;

  constructor(bus: MessageBus, instance: string, events: TaskBusEvents, onError: (error: Error) => void) {
    this.#bus = bus;
    this.#instance = instance;
    this.#onError = onError;
    this.ready = bus
      .subscribe(TASKS_TOPIC, (message) => {
        if (message.from === this.#instance || typeof message.taskId !== 'string') return;
        if (message.t === 'cancel') events.cancel(message.taskId);
        else if (message.t === 'answer' && isObject(message.responses))
          events.answer(message.taskId, message.responses);
        else if (message.t === 'status' && isObject(message.record))
          events.status(message.record as unknown as TaskRecord);
      })
      .then((unsubscribe) => {
        this.#unsubscribe = unsubscribe;
      });
  }

  cancel(taskId: string): void {
    this.#publish({ t: 'cancel', taskId });
  }

  answer(taskId: string, responses: Record<string, unknown>): void {
    this.#publish({ t: 'answer', taskId, responses });
  }

  status(record: TaskRecord): void {
    this.#publish({ t: 'status', taskId: record.taskId, record: record as unknown as BusMessage });
  }

  async close(): Promise<void> {
    await this.#unsubscribe?.();
  }

  #publish(message: Record<string, unknown>): void {
    this.#bus
      .publish(TASKS_TOPIC, { ...message, from: this.#instance })
      .catch((error: unknown) => this.#onError(error as Error));
  }
}
