import type { JsonRpcPeer, RequestId } from '@mcpkit/jsonrpc-core';
import type { RequestMeta, SubscriptionFilter } from '@mcpkit/protocol';
import { McpClientError } from './errors';
import type { SubscribeFilter, Subscription, SubscriptionEnd, SubscriptionNotification } from './subscription-types';

/** A `subscriptions/listen` request, open until one side ends it. */
export interface ListenStream {
  readonly id: RequestId;
  readonly controller: AbortController;
  readonly onNotification: (notification: SubscriptionNotification) => void;
  /** Resolves the subscribing call; cleared once acknowledged or ended. */
  acknowledged: ((honoured: SubscriptionFilter) => void) | undefined;
  /** Ends the stream once: leaves `streams`, fails a pending subscribe, settles `ended`. */
  end: (end: SubscriptionEnd) => void;
}

/** Where one listen stream is sent and registered. */
export interface ListenTarget {
  readonly peer: JsonRpcPeer;
  /** The `_meta` envelope of the request. */
  readonly meta: RequestMeta;
  /** The open streams, by listen request id (= the `subscriptionId` of their notifications). */
  readonly streams: Map<RequestId, ListenStream>;
  /** How long the acknowledgement may take; 0: forever. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * Opens one `subscriptions/listen` stream (2026-07-28) and resolves once the server acknowledged it, with what it
 * honoured. The stream is registered under its request id before the transport sees the request, so neither the
 * acknowledgement nor the first notification can outrun it.
 */
export async function openListenStream(
  filter: SubscribeFilter,
  onNotification: (notification: SubscriptionNotification) => void,
  target: ListenTarget,
): Promise<Subscription> {
  const { peer, streams, timeoutMs, signal } = target;
  const controller = new AbortController();
  let settleEnded!: (end: SubscriptionEnd) => void;
  const ended = new Promise<SubscriptionEnd>((resolve) => {
    settleEnded = resolve;
  });
  let stream: ListenStream | undefined;
  const acknowledged = new Promise<SubscriptionFilter>((resolve, reject) => {
    const open = (id: RequestId) => {
      const opened: ListenStream = {
        id,
        controller,
        onNotification,
        acknowledged: resolve,
        end: (end) => {
          if (streams.get(id) === opened) streams.delete(id);
          if (opened.acknowledged !== undefined) {
            opened.acknowledged = undefined;
            reject(
              end.error ??
                new McpClientError(
                  'ERR_SUBSCRIPTION',
                  `The subscriptions/listen stream ended (${end.by}) before it was acknowledged`,
                  { subscriptionId: id },
                ),
            );
          }
          settleEnded(end);
        },
      };
      stream = opened;
      streams.set(id, opened);
    };
    peer
      .request(
        'subscriptions/listen',
        { notifications: toWireFilter(filter), _meta: target.meta },
        // A listen stream lives until one side ends it.
        { signal: controller.signal, timeoutMs: 0, maxTotalTimeoutMs: 0, onRequest: (request) => open(request.id) },
      )
      .then(
        () => stream?.end({ by: 'server' }),
        (error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          if (stream === undefined)
            reject(failure); // refused before it was sent
          else if (!controller.signal.aborted) stream.end({ by: 'connection', error: failure }); // else: already ended
        },
      );
  });
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          if (stream?.acknowledged === undefined) return;
          controller.abort(new Error('not acknowledged in time'));
          stream.end({
            by: 'connection',
            error: new McpClientError(
              'ERR_SUBSCRIPTION',
              `The server did not acknowledge subscriptions/listen (id ${String(stream.id)}) within ${timeoutMs} ms`,
              { subscriptionId: stream.id, timeoutMs },
            ),
          });
        }, timeoutMs)
      : undefined;
  const onAbort = () => {
    controller.abort(signal?.reason);
    if (stream !== undefined && streams.get(stream.id) === stream) {
      stream.end({
        by: 'client',
        error: new McpClientError('ERR_SUBSCRIPTION', 'Subscribing was aborted', { subscriptionId: stream.id }),
      });
    }
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  let honoured: SubscriptionFilter;
  try {
    honoured = await acknowledged;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  // Only an opened stream can be acknowledged.
  const opened = stream as unknown as ListenStream;
  return {
    honoured: fromWireFilter(honoured),
    id: opened.id,
    ended,
    close: async () => {
      if (streams.get(opened.id) !== opened) return;
      streams.delete(opened.id);
      // Aborting makes the peer send notifications/cancelled {requestId: id} where the transport needs it.
      controller.abort(new Error('Subscription closed by the client'));
      opened.end({ by: 'client' });
    },
  };
}

/** The `notifications` of a `subscriptions/listen` request. */
function toWireFilter(filter: SubscribeFilter): SubscriptionFilter {
  const notifications: SubscriptionFilter = {};
  if (filter.toolsListChanged) notifications.toolsListChanged = true;
  if (filter.promptsListChanged) notifications.promptsListChanged = true;
  if (filter.resourcesListChanged) notifications.resourcesListChanged = true;
  if (filter.resources && filter.resources.length > 0) notifications.resourceSubscriptions = [...filter.resources];
  if (filter.taskIds && filter.taskIds.length > 0) notifications.taskIds = [...filter.taskIds];
  return notifications;
}

/** What an acknowledgement honoured, as a {@link SubscribeFilter}. */
function fromWireFilter(honoured: SubscriptionFilter): SubscribeFilter {
  const filter: SubscribeFilter = {};
  if (honoured.toolsListChanged) filter.toolsListChanged = true;
  if (honoured.promptsListChanged) filter.promptsListChanged = true;
  if (honoured.resourcesListChanged) filter.resourcesListChanged = true;
  if (honoured.resourceSubscriptions) filter.resources = [...honoured.resourceSubscriptions];
  if (honoured.taskIds) filter.taskIds = [...honoured.taskIds];
  return filter;
}
