import {
  createLinkedTransports,
  type JsonRpcMessage,
  type JsonRpcNotification,
  JsonRpcPeer,
  type JsonRpcRequest,
  type MessageInfo,
  type RequestId,
  type Transport,
} from '@mcpkit/jsonrpc-core';
import { mcpPeerHooks, type ServerCapabilities } from '@mcpkit/protocol';
import { type CheckedTransport, checkWire } from '@mcpkit/testkit';
import { Client, type ClientOptions, type ConnectOptions } from '../../src/index';

export const SERVER_INFO = { name: 'fake-server', version: '1.0.0' };
export const CLIENT_INFO = { name: 'test-client', version: '0.1.0' };
export const MODERN = '2026-07-28';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** A 2026-07-28 complete result, as a modern server sends it. */
export function complete<T extends object>(result: T): T & { resultType: 'complete' } {
  return { resultType: 'complete', ...result, _meta: { [SERVER_INFO_KEY]: SERVER_INFO } };
}

/** A 2026-07-28 cacheable complete result. */
export function cacheable<T extends object>(
  result: T,
  ttlMs = 0,
  cacheScope: 'public' | 'private' = 'public',
): T & { resultType: 'complete'; ttlMs: number; cacheScope: 'public' | 'private' } {
  return complete({ ...result, ttlMs, cacheScope });
}

/** Makes `peer` a 2026-07-28 server: it answers server/discover. */
export function modernServer(peer: JsonRpcPeer, capabilities: ServerCapabilities, supportedVersions = [MODERN]): void {
  peer.setRequestHandler('server/discover', () =>
    cacheable({ supportedVersions, capabilities, instructions: 'Be nice.' }, 0, 'public'),
  );
}

/** Makes `peer` a legacy server answering `initialize` with `version`; server/discover gets -32601 (no handler). */
export function legacyServer(peer: JsonRpcPeer, capabilities: ServerCapabilities, version = '2025-11-25'): void {
  peer.setRequestHandler('initialize', () => ({ protocolVersion: version, capabilities, serverInfo: SERVER_INFO }));
  peer.setNotificationHandler('notifications/initialized', () => {});
}

/**
 * A transport wrapper that records every message both ways. With `cancelsBySignal`, it cancels 2026-07-28 requests
 * the way Streamable HTTP does (by their send signal, recorded in `cancelled`) instead of a notification.
 */
function recording(
  transport: Transport,
  sent: JsonRpcMessage[],
  received: JsonRpcMessage[],
  cancelled: RequestId[] | undefined,
): Transport {
  const wrapper: Transport = {
    start() {
      transport.onmessage = (message: JsonRpcMessage, info?: MessageInfo) => {
        received.push(message);
        wrapper.onmessage?.(message, info);
      };
      transport.onclose = (reason?: Error) => wrapper.onclose?.(reason);
      transport.onerror = (error: Error) => wrapper.onerror?.(error);
      return transport.start();
    },
    send(message, options) {
      sent.push(message);
      const signal = options?.signal;
      if (signal !== undefined && cancelled !== undefined && 'id' in message) {
        signal.addEventListener('abort', () => cancelled.push(message.id as RequestId), { once: true });
      }
      return transport.send(message, options);
    },
    close: () => transport.close(),
  };
  if (cancelled !== undefined) {
    wrapper.cancelsBySignal = (request) =>
      (request.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.[
        'io.modelcontextprotocol/protocolVersion'
      ] !== undefined;
  }
  return wrapper;
}

export interface Harness {
  client: Client;
  server: JsonRpcPeer;
  /** Messages the client sent, in order. */
  sent: JsonRpcMessage[];
  /** Messages the client received, in order. */
  received: JsonRpcMessage[];
  checked: CheckedTransport;
  /** With `cancelsBySignal`: the ids of requests the transport was told to cancel by their signal. */
  cancelledBySignal: RequestId[];
  /** Requests the client sent (optionally of one method). */
  requests(method?: string): JsonRpcRequest[];
  /** Notifications the client sent (optionally of one method). */
  notifications(method?: string): Array<{ method: string; params?: unknown }>;
}

export interface HarnessOptions {
  /** Sets up the scripted server (handlers). */
  server: (peer: JsonRpcPeer) => void;
  client?: ClientOptions;
  connect?: ConnectOptions;
  /** Do not connect the client (the test does it). */
  manualConnect?: boolean;
  /** The client's transport cancels 2026-07-28 requests by their send signal, as Streamable HTTP does. */
  cancelsBySignal?: boolean;
}

/** A client wired to a scripted server over linked in-memory transports, the client side checked against the schema. */
export async function harness(options: HarnessOptions): Promise<Harness & { transport: Transport }> {
  const [clientSide, serverSide] = createLinkedTransports();
  const server = new JsonRpcPeer({ hooks: mcpPeerHooks });
  options.server(server);
  await server.connect(serverSide);
  const sent: JsonRpcMessage[] = [];
  const received: JsonRpcMessage[] = [];
  const cancelled: RequestId[] | undefined = options.cancelsBySignal === true ? [] : undefined;
  const checked = checkWire(recording(clientSide, sent, received, cancelled), { side: 'client' });
  const client = new Client(CLIENT_INFO, options.client);
  if (!options.manualConnect) await client.connect(checked, options.connect);
  return {
    client,
    server,
    sent,
    received,
    checked,
    cancelledBySignal: cancelled ?? [],
    transport: checked,
    requests: (method) =>
      sent.filter(
        (message): message is JsonRpcRequest =>
          'method' in message && 'id' in message && (method === undefined || message.method === method),
      ),
    notifications: (method) =>
      sent.filter(
        (message): message is JsonRpcNotification =>
          'method' in message && !('id' in message) && (method === undefined || message.method === method),
      ),
  };
}

/** Waits until `condition` holds (bounded: 2 s). */
export async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The `_meta` of a request's params. */
export function metaOf(request: JsonRpcRequest): Record<string, unknown> | undefined {
  return (request.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
}
