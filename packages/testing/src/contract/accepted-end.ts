import type { JsonRpcMessage, MessageInfo, Transport, TransportSendOptions } from '@mcpkit/jsonrpc-core';

/** A server end that exists before its transport does: see `acceptedEnd`. */
export interface AcceptedEnd<T extends Transport> extends Transport {
  /** Hands over the transport the listener made for the connection; call it once, from the accept callback. */
  arrive(transport: T): void;
  /** Resolves with the transport once it arrived. */
  readonly arrived: Promise<T>;
}

/**
 * The server end of a pair for a transport whose server side is made by a listener when a client connects (a socket
 * server's `connection`, a WebSocket upgrade): the suite starts this end before the client connects, and the real
 * transport gets the callback slots and is started the moment it `arrive`s, in the same turn, so no message is
 * missed. `close()` before it arrived closes it as soon as it does.
 *
 * @example
 * let accept: ((transport: UnixSocketTransport) => void) | undefined;
 * const listener = await listenOnUnixSocket(path, (transport) => accept?.(transport));
 * describeTransport('unix socket', () => {
 *   const server = acceptedEnd<UnixSocketTransport>();
 *   accept = (transport) => server.arrive(transport);
 *   return { client: new UnixSocketClientTransport(path), server };
 * }, { describe, it });
 */
export function acceptedEnd<T extends Transport>(): AcceptedEnd<T> {
  let resolve!: (transport: T) => void;
  const arrived = new Promise<T>((done) => {
    resolve = done;
  });
  let closeRequested = false;
  const end: AcceptedEnd<T> = {
    arrived,
    arrive(transport) {
      transport.onmessage = (message: JsonRpcMessage, info?: MessageInfo) => end.onmessage?.(message, info);
      transport.onclose = (reason?: Error) => end.onclose?.(reason);
      transport.onerror = (error: Error) => end.onerror?.(error);
      void transport.start().then(() => {
        if (closeRequested) void transport.close();
      });
      resolve(transport);
    },
    start: async () => {},
    send: async (message: JsonRpcMessage, options?: TransportSendOptions) => (await arrived).send(message, options),
    close: async () => {
      closeRequested = true;
      // A client that never connected leaves nothing to close: give up on it after a second.
      let giveUp!: () => void;
      const gaveUp = new Promise<undefined>((resolve) => {
        giveUp = () => resolve(undefined);
      });
      const timer = setTimeout(giveUp, 1_000);
      const transport = await Promise.race([arrived, gaveUp]);
      clearTimeout(timer);
      await transport?.close();
    },
  };
  return end;
}
