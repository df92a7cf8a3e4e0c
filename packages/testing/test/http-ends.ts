// Ends of HTTP channels the contract suite can drive. An HTTP server end is not a transport a user connects: the
// endpoint makes one per session (legacy) or none at all (2026-07-28, one request at a time), and hands it to the MCP
// `Server`. These helpers stand in the `Server`'s place after the handshake, so the suite sees the very transport the
// endpoint made (legacy session, legacy SSE) or the very calls it makes (2026-07-28).
import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  MessageInfo,
  Transport,
  TransportReceiver,
  TransportSendOptions,
} from '@mcpkit/jsonrpc-core';
import { type ConnectOptions, type HandleNotificationOptions, Server, type ServerSession } from '@mcpkit/server';

type HandleOptions = NonNullable<Parameters<Server['handle']>[1]>;

type Slots = Pick<Transport, 'onmessage' | 'onclose' | 'onerror'>;

/**
 * A transport that already started (it did the MCP handshake), seen afresh: `start()` takes over its slots. What
 * arrived in between is replayed.
 */
export function handedOver(transport: Transport, slots: Slots = transport): Transport {
  const end: Transport = {
    start: async () => {
      slots.onmessage = (message: JsonRpcMessage, info?: MessageInfo) => end.onmessage?.(message, info);
      slots.onclose = (reason?: Error) => end.onclose?.(reason);
      slots.onerror = (error: Error) => end.onerror?.(error);
    },
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
  };
  if (transport.cancelsBySignal !== undefined) end.cancelsBySignal = (request) => transport.cancelsBySignal!(request);
  return end;
}

/**
 * A `Server` whose sessions are handed to the test once the handshake is over: the endpoint's transport first serves
 * the real session (so `initialize` is answered by the real server), then `takeOver()` turns its traffic to a
 * transport the suite drives.
 */
export class HandoverServer extends Server {
  /** The server-side transports the endpoint connected, newest last. */
  readonly accepted: { transport: Transport; takeOver: () => Transport }[] = [];

  constructor() {
    super({ name: 'contract-server', version: '0.0.0' });
  }

  override async connect(transport: Transport, options?: ConnectOptions): Promise<ServerSession> {
    // The session's peer reads from `relay`; the endpoint's transport reports to `relay` (its receiver), which passes
    // everything to the peer until the test takes over.
    let target: Slots | undefined;
    const relay: Transport & TransportReceiver = {
      start: () => transport.start(),
      send: (message, sendOptions) => transport.send(message, sendOptions),
      close: () => transport.close(),
      receiveMessage: (message, info) => (target ?? relay).onmessage?.(message, info),
      transportClosed: (reason) => {
        relay.onclose?.(reason);
        if (target !== undefined) target.onclose?.(reason);
      },
      transportError: (error) => (target ?? relay).onerror?.(error),
    };
    if (typeof transport.attachReceiver === 'function') {
      transport.attachReceiver(relay);
    } else {
      transport.onmessage = (message, info) => relay.receiveMessage(message, info);
      transport.onclose = (reason) => relay.transportClosed(reason);
      transport.onerror = (error) => relay.transportError(error);
    }
    const session = await super.connect(relay, options);
    const slots: Slots = {};
    this.accepted.push({
      transport,
      takeOver: () => {
        target = slots;
        return handedOver(transport, slots);
      },
    });
    return session;
  }
}

/** One request the 2026-07-28 endpoint passed to `Server.handle`, waiting for the suite's answer. */
interface Handling {
  resolve: (response: JsonRpcResponse | undefined) => void;
  notify: HandleOptions['notify'];
}

/**
 * A `Server` whose `handle` (what the 2026-07-28 endpoint calls for each POST) is the server end of the suite: the
 * request arrives through `onmessage` with the endpoint's `MessageInfo`, and the response the suite sends ends that
 * POST; a notification sent with `relatedRequestId` goes on that request's stream. There is no channel to close and
 * nothing can be sent outside a request, which the suite is told through its capabilities.
 */
export class StatelessEndServer extends Server {
  readonly end: Transport;
  readonly #handling = new Map<string, Handling>();
  #closed = false;

  constructor() {
    super({ name: 'contract-server', version: '0.0.0' });
    const handling = this.#handling;
    const end: Transport = {
      start: async () => {},
      send: async (message: JsonRpcMessage, options?: TransportSendOptions) => {
        if (this.#closed) throw new Error('the stateless server end is closed');
        if ('method' in message) {
          const related = options?.relatedRequestId;
          const open = related === undefined ? undefined : handling.get(JSON.stringify(related));
          if (open?.notify === undefined || 'id' in message) {
            throw new Error('2026-07-28 HTTP: a server message must be a notification tied to an open request');
          }
          open.notify(message as JsonRpcNotification as Parameters<NonNullable<HandleOptions['notify']>>[0]);
          return;
        }
        const key = JSON.stringify(message.id);
        const open = handling.get(key);
        if (open === undefined) throw new Error(`no open request ${key} to answer`);
        handling.delete(key);
        open.resolve(message as JsonRpcResponse);
      },
      close: async () => {
        if (this.#closed) return;
        this.#closed = true;
        for (const open of handling.values()) open.resolve(undefined);
        handling.clear();
        end.onclose?.();
      },
    };
    this.end = end;
  }

  override handle(request: JsonRpcRequest, options: HandleOptions = {}): Promise<JsonRpcResponse | undefined> {
    return new Promise((resolve) => {
      this.#handling.set(JSON.stringify(request.id), { resolve, notify: options.notify });
      options.signal?.addEventListener('abort', () => {
        if (this.#handling.delete(JSON.stringify(request.id))) resolve(undefined);
      });
      this.end.onmessage?.(request, options.info);
    });
  }

  override async handleNotification(
    notification: JsonRpcNotification,
    options: HandleNotificationOptions = {},
  ): Promise<void> {
    this.end.onmessage?.(notification, options.info);
  }
}
