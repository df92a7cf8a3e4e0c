export { AbortLink, type AbortSource, toAbortSignal } from './abort-link';
export {
  type CodedError,
  type CodedErrorArgs,
  type CodedErrorClass,
  defineCodedError,
} from './coded-error';
export type { ContextPeer, NotificationContext, RequestContext } from './context';
export {
  ConnectionClosedError,
  type ConnectionClosedErrorData,
  FrameTooLargeError,
  type FrameTooLargeErrorData,
  InvalidMessageError,
  type InvalidMessageErrorData,
  JsonRpcError,
  JsonRpcErrorCode,
  RequestAbortedError,
  type RequestAbortedErrorData,
  RequestTimeoutError,
  type RequestTimeoutErrorData,
  UnknownResponseError,
  type UnknownResponseErrorData,
} from './errors';
export { DEFAULT_MAX_LINE_BYTES, encodeLine, LineDecoder, type LineDecoderOptions } from './framing';
export type { CancellationRequest, OutboundNotification, PeerHooks, ProgressToken, ProgressUpdate } from './hooks';
export { toError, toErrorObject } from './in-flight';
export { isJsonObject, type JsonObject } from './json-object';
export {
  createLinkedTransports,
  InMemoryTransport,
  type InMemoryTransportOptions,
  type LinkedTransportsOptions,
  type MessageInfoSource,
} from './memory-transport';
export { type MessageHead, readMessageHead } from './message-head';
export {
  isJsonRpcErrorResponse,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  isJsonRpcSuccessResponse,
  JSONRPC_VERSION,
  type JsonRpcErrorObject,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcParams,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccessResponse,
  type RequestId,
} from './messages';
export {
  type Middleware,
  MiddlewareChain,
  type MiddlewareChainOptions,
  MiddlewareResultError,
  type Next,
} from './middleware';
export {
  type BatchResult,
  type MessageResult,
  type ParseOptions,
  type ParseResult,
  parseMessage,
  serializeMessage,
  validateMessage,
} from './parse';
export { JsonRpcPeer } from './peer';
export { type JsonRpcPeerOptions, PeerSettings } from './peer-settings';
export type { NotifyOptions, RequestOptions } from './request-options';
export { type NotificationHandler, type RequestHandler, Router } from './router';
export type { AuthInfo, MessageInfo, Transport, TransportReceiver, TransportSendOptions } from './transport';
export { ContextVariables } from './variables';
