import type { PeerHooks } from '../src/hooks';
import { createLinkedTransports, type LinkedTransportsOptions } from '../src/memory-transport';
import type { JsonRpcMessage } from '../src/messages';
import { JsonRpcPeer } from '../src/peer';
import type { JsonRpcPeerOptions } from '../src/peer-settings';
import type { MessageInfo, Transport, TransportSendOptions } from '../src/transport';

/** Two peers over a linked in-memory pair: `client` on the first transport, `server` on the second. */
export async function connectedPeers(
  options: { client?: JsonRpcPeerOptions; server?: JsonRpcPeerOptions; transports?: LinkedTransportsOptions } = {},
) {
  const [clientTransport, serverTransport] = createLinkedTransports(options.transports);
  const client = new JsonRpcPeer(options.client);
  const server = new JsonRpcPeer(options.server);
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return { client, server, clientTransport, serverTransport };
}

/** MCP-shaped hooks written for the tests (jsonrpc-core knows nothing of MCP). */
export const testHooks: PeerHooks = {
  attachProgressToken: (params, token) => {
    const object = (params ?? {}) as Record<string, unknown>;
    return { ...object, _meta: { ...(object._meta as object | undefined), progressToken: token } };
  },
  readProgress: (method, params) => {
    if (method !== 'notifications/progress') return undefined;
    const { progressToken, ...progress } = params as { progressToken: string | number };
    return { token: progressToken, progress };
  },
  cancellationNotification: (request, reason) =>
    request.method === 'initialize'
      ? undefined
      : {
          method: 'notifications/cancelled',
          params: { requestId: request.id, reason: reason instanceof Error ? reason.message : String(reason) },
        },
  readCancellation: (method, params) => {
    if (method !== 'notifications/cancelled') return undefined;
    const { requestId, reason } = params as { requestId: string | number; reason?: string };
    return { requestId, reason };
  },
};

/** The progress token a test-hooks request carries. */
export function progressTokenOf(message: JsonRpcMessage): string | number {
  return (message as unknown as { params: { _meta: { progressToken: string | number } } }).params._meta.progressToken;
}

/**
 * A transport driven by the test: it records what the peer sends, and `deliver()` hands the peer any value (valid or
 * not) as if it came from the wire. `sendImpl` replaces the default (accept everything).
 */
export class ScriptedTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;
  readonly sent: { message: JsonRpcMessage; options: TransportSendOptions | undefined }[] = [];
  sendImpl: ((message: JsonRpcMessage) => Promise<void> | void) | undefined = undefined;
  startCalls = 0;
  closeCalls = 0;

  async start(): Promise<void> {
    this.startCalls++;
  }

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> | void {
    this.sent.push({ message, options });
    return this.sendImpl?.(message);
  }

  async close(): Promise<void> {
    this.closeCalls++;
    if (this.closeCalls === 1) this.onclose?.();
  }

  /** Delivers a value to the peer as an inbound message. */
  deliver(message: unknown, info?: MessageInfo): void {
    this.onmessage?.(message as JsonRpcMessage, info);
  }

  /** The messages sent so far (without options). */
  messages(): JsonRpcMessage[] {
    return this.sent.map((entry) => entry.message);
  }

  /** The methods of the requests and notifications sent so far. */
  methods(): (string | undefined)[] {
    return this.sent.map((entry) => (entry.message as { method?: string }).method);
  }

  /** The last message sent. */
  last(): JsonRpcMessage {
    const entry = this.sent.at(-1);
    if (entry === undefined) throw new Error('ScriptedTransport: nothing was sent');
    return entry.message;
  }
}

/** A peer connected to a `ScriptedTransport`. */
export async function scriptedPeer(options: JsonRpcPeerOptions = {}) {
  const transport = new ScriptedTransport();
  const peer = new JsonRpcPeer(options);
  await peer.connect(transport);
  return { peer, transport };
}

/** Lets queued microtasks (in-memory delivery, promise chains) run; bounded so a bug cannot spin forever. */
export async function flushMicrotasks(rounds = 50): Promise<void> {
  for (let round = 0; round < rounds; round++) await Promise.resolve();
}

/** A promise with its resolve/reject exposed. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
