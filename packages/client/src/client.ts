import type { Implementation } from '@mcpkit/protocol';
import type { LeanClientInternals } from './client-internals';
import { jsonSchemaValidator } from './json-schema-validator';
import { LeanClient, leanClientInternals } from './lean-client';
import { ListKeeper } from './list-keeper';
import type { Lists } from './lists';
import type { ClientOptions } from './options';
import { ResponseCache } from './response-cache';
import { type SubscribeFilter, type Subscription, type SubscriptionNotification, Subscriptions } from './subscriptions';

/**
 * An MCP client that speaks both eras: 2026-07-28 (stateless, `_meta` envelope on every request, `server/discover`,
 * input requests inside results) and 2024-11-05 … 2025-11-25 (`initialize` handshake, server→client requests).
 * It is `LeanClient` with everything on: subscriptions (`subscribe`), the lists it keeps (`lists`, refetched when the
 * server says they changed), a response cache of its own unless given one (or `cache: false`), and `callTool`'s
 * `structuredContent` check with `jsonSchemaValidator` (@cfworker/json-schema) unless `jsonSchema` names another.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'my-app', version: '1.0.0' }, {
 *   handlers: { elicitation: async (params) => ({ action: 'accept', content: { answer: 'yes' } }) },
 * });
 * await client.connect(transport); // probes server/discover, falls back to initialize
 * const { tools } = await client.listTools();
 * const result = await client.callTool({ name: tools[0]!.name, arguments: {} });
 * await client.close();
 * ```
 */
export class Client extends LeanClient {
  readonly #internals: LeanClientInternals;
  readonly #lists: ListKeeper;
  readonly #subscriptions: Subscriptions;

  constructor(info: Implementation, options: ClientOptions = {}) {
    super(info, {
      ...options,
      jsonSchema: options.jsonSchema ?? jsonSchemaValidator,
      cache: options.cache === false ? false : (options.cache ?? new ResponseCache()),
    });
    const internals = leanClientInternals(this);
    this.#internals = internals;
    this.#lists = new ListKeeper({
      walk: internals.walk,
      refreshOnChange: options.refreshListsOnChange !== false,
      onRefreshed: options.onListRefreshed,
      warnings: internals.warnings,
    });
    this.#subscriptions = new Subscriptions({
      call: internals.call,
      cancellation: internals.cancellation,
      enforce: options.enforceServerCapabilities !== false,
      timeoutMs: internals.timeoutMs,
      connected: () => this.connected,
      onError: options.onError,
    });
    this.#subscriptions.listen(internals.own);
    internals.features.lists = this.#lists;
    internals.features.subscriptions = this.#subscriptions;
  }

  /**
   * The last complete list of each kind fetched with `listAll*` (kept fresh on list-changed notifications when
   * `refreshListsOnChange` is on).
   */
  get lists(): Readonly<Lists> {
    return this.#lists.lists;
  }

  /**
   * Subscribes to list changes and resource updates, in either era: 2026-07-28 opens one `subscriptions/listen`
   * stream and resolves once the server acknowledged it (`honoured` is what it agreed to); older revisions send
   * `resources/subscribe` per URI and listen for list-changed notifications the server declared. Lists fetched with
   * `listAll*` are refreshed on list-changed notifications either way.
   *
   * @example
   * ```ts
   * const subscription = await client.subscribe({ toolsListChanged: true, resources: ['file:///log.txt'] }, (n) => {
   *   if (n.method === 'notifications/resources/updated') console.log('changed:', n.params.uri);
   * });
   * await subscription.close();
   * ```
   */
  subscribe(
    filter: SubscribeFilter,
    onNotification: (notification: SubscriptionNotification) => void,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<Subscription> {
    const connection = this.#internals.connection('subscriptions/listen');
    return connection.session.era.subscribe(connection, this.#subscriptions, filter, onNotification, options);
  }
}
