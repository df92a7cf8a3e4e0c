import type { JsonRpcMessage, MessageInfo, Transport, TransportSendOptions } from '@mcpkit/jsonrpc-core';

/** A server end that exists before its transport does: the accepted connection's transport `arrive`s later. */
export interface LateServerEnd<T extends Transport> extends Transport {
  arrive(transport: T): void;
  readonly arrived: Promise<T>;
}

/**
 * For transports whose server end is made by an accept (a WebSocket `connection`, an HTTP session): the suite starts
 * this end first; the real transport gets the slots and is started the moment it arrives, in the same turn, so no
 * message is missed.
 */
export function lateServerEnd<T extends Transport>(): LateServerEnd<T> {
  let resolve!: (transport: T) => void;
  const arrived = new Promise<T>((done) => {
    resolve = done;
  });
  let closeRequested = false;
  const end: LateServerEnd<T> = {
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
      const transport = await Promise.race([arrived, new Promise<undefined>((done) => setTimeout(done, 1_000))]);
      await transport?.close();
    },
  };
  return end;
}
