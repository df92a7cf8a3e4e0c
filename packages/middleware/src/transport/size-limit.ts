import {
  defineCodedError,
  type JsonRpcMessage,
  type MessageInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@mcpkit/jsonrpc-core';
import { WrappedTransport } from './wrapped-transport';

/** The JSON-RPC error code of a message refused for its size: 413, as the HTTP status "Content Too Large". */
export const MESSAGE_TOO_LARGE = 413;

/** Options of {@link limitMessageSize}. */
export interface MessageSizeLimitOptions {
  /** The largest message, in bytes of its UTF-8 JSON. */
  maxBytes: number;
  /** Which way the limit applies. Default `'both'`. */
  direction?: 'inbound' | 'outbound' | 'both';
}

/** Debug data of a {@link MessageTooLargeError}. */
export interface MessageTooLargeErrorData {
  direction: 'inbound' | 'outbound';
  bytes: number;
  maxBytes: number;
  method?: string;
  id?: RequestId | null;
}

/** A message over the size limit (reported through `onerror`, or failing the send of an outbound request). */
export class MessageTooLargeError extends defineCodedError<'ERR_MESSAGE_TOO_LARGE', MessageTooLargeErrorData>(
  'MessageTooLargeError',
  '@mcpkit/middleware/MessageTooLargeError',
) {}

/** UTF-8 length of a string without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2; // a surrogate pair: 4 bytes for 2 UTF-16 units
      index++;
    } else bytes += 2;
  }
  return bytes;
}

function errorResponse(id: RequestId, message: string, data: MessageTooLargeErrorData): JsonRpcMessage {
  return { jsonrpc: '2.0', id, error: { code: MESSAGE_TOO_LARGE, message, data } } as JsonRpcMessage;
}

class SizeLimitTransport extends WrappedTransport {
  readonly #max: number;
  readonly #inbound: boolean;
  readonly #outbound: boolean;

  constructor(inner: Transport, options: MessageSizeLimitOptions) {
    super(inner);
    if (!(options.maxBytes > 0))
      throw new RangeError(`limitMessageSize: maxBytes must be positive, got ${options.maxBytes}`);
    this.#max = options.maxBytes;
    const direction = options.direction ?? 'both';
    this.#inbound = direction !== 'outbound';
    this.#outbound = direction !== 'inbound';
  }

  #tooLarge(direction: 'inbound' | 'outbound', message: JsonRpcMessage): MessageTooLargeErrorData | undefined {
    const bytes = utf8Length(JSON.stringify(message));
    if (bytes <= this.#max) return undefined;
    const data: MessageTooLargeErrorData = { direction, bytes, maxBytes: this.#max };
    if ('method' in message) data.method = message.method;
    if ('id' in message) data.id = message.id;
    return data;
  }

  protected override sendThrough(message: JsonRpcMessage, options: TransportSendOptions | undefined) {
    if (!this.#outbound) return this.inner.send(message, options);
    const over = this.#tooLarge('outbound', message);
    if (over === undefined) return this.inner.send(message, options);
    const text = `Outbound ${describe(message)} is ${over.bytes} bytes, over the limit of ${over.maxBytes}`;
    if (!('method' in message) && message.id !== null) {
      // A response too large to send: the caller gets an error in its place rather than waiting for nothing.
      this.report(new MessageTooLargeError('ERR_MESSAGE_TOO_LARGE', text, over));
      return this.inner.send(errorResponse(message.id, `The result is too large to send (${text})`, over), options);
    }
    // A request or notification: its send fails (the peer fails the request with this error).
    throw new MessageTooLargeError('ERR_MESSAGE_TOO_LARGE', text, over);
  }

  protected override receive(message: JsonRpcMessage, info: MessageInfo | undefined): void {
    if (!this.#inbound) {
      this.deliver(message, info);
      return;
    }
    const over = this.#tooLarge('inbound', message);
    if (over === undefined) {
      this.deliver(message, info);
      return;
    }
    const text = `Inbound ${describe(message)} is ${over.bytes} bytes, over the limit of ${over.maxBytes}`;
    this.report(new MessageTooLargeError('ERR_MESSAGE_TOO_LARGE', text, over));
    if ('method' in message) {
      // A request is answered with an error so its sender does not wait; a notification is dropped (reported).
      if ('id' in message) {
        void Promise.resolve(
          this.inner.send(errorResponse(message.id, `Message too large: ${text}`, over), {
            relatedRequestId: message.id,
          }),
        ).catch((error: unknown) => this.report(error instanceof Error ? error : new Error(String(error))));
      }
      return;
    }
    // A response too large to accept: its request fails with the error instead of waiting for a timeout.
    if (message.id !== null) this.deliver(errorResponse(message.id, `The response is too large (${text})`, over), info);
  }
}

function describe(message: JsonRpcMessage): string {
  if ('method' in message) return 'id' in message ? `request '${message.method}'` : `notification '${message.method}'`;
  return `response to id ${String(message.id)}`;
}

/**
 * Bounds the size of every message a transport carries (bytes of its UTF-8 JSON), for transports or deployments
 * without a limit of their own. Nothing is lost silently: an inbound request over the limit is answered with a
 * JSON-RPC error (code 413) and reported; an inbound response over it fails its request with that error; an outbound
 * request or notification fails its send with {@link MessageTooLargeError}; an outbound response over it is replaced
 * by an error response, so the other side's caller learns at once. Inbound notifications over the limit are dropped
 * and reported through `onerror`. Measuring costs one `JSON.stringify` per message: use it where the limit matters.
 *
 * @example
 * await server.connect(limitMessageSize(new StdioServerTransport(), { maxBytes: 1024 * 1024 }));
 */
export function limitMessageSize(transport: Transport, options: MessageSizeLimitOptions): Transport {
  return new SizeLimitTransport(transport, options);
}
