import type { JsonRpcParams, MessageInfo, RequestId } from '@mcpkit/jsonrpc-core';
import { MetaKeys, type SubscriptionFilter } from '@mcpkit/protocol';
import type { ServerSession } from '../session/session';

/**
 * One open `subscriptions/listen` request (2026-07-28): the honoured filter, and a way to send on its stream. Every
 * notification it sends carries `_meta["io.modelcontextprotocol/subscriptionId"]` = the listen request's id.
 */
export class ListenStream {
  readonly id: RequestId;
  readonly filter: SubscriptionFilter;
  readonly session: ServerSession | undefined;
  /**
   * What the transport knew about the listen request (its `auth` above all): extensions that push per-caller
   * notifications on streams (tasks: `notifications/tasks` only to the task's owner) check it.
   */
  readonly info: MessageInfo;
  readonly #notify: (method: string, params?: JsonRpcParams) => Promise<void>;
  readonly #finish: (result: unknown) => void;

  constructor(
    id: RequestId,
    filter: SubscriptionFilter,
    session: ServerSession | undefined,
    notify: (method: string, params?: JsonRpcParams) => Promise<void>,
    finish: (result: unknown) => void,
    info: MessageInfo = {},
  ) {
    this.id = id;
    this.filter = filter;
    this.session = session;
    this.info = info;
    this.#notify = notify;
    this.#finish = finish;
  }

  /** Sends a notification on this stream, tagged with its subscription id. */
  send(method: string, params?: Record<string, unknown>): Promise<void> {
    const meta = params?._meta as Record<string, unknown> | undefined;
    return this.#notify(method, { ...params, _meta: { ...meta, [MetaKeys.SubscriptionId]: this.id } });
  }

  /** Ends the subscription gracefully: the listen request is answered. */
  end(): void {
    this.#finish({ resultType: 'complete', _meta: { [MetaKeys.SubscriptionId]: this.id } });
  }
}
