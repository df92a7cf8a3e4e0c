// @mcpkit/middleware/transport: wrappers for any transport — observe, record and replay, bound message sizes.

export {
  type RecordedLine,
  type RecordingTransport,
  type RecordTransportOptions,
  ReplayError,
  type ReplayErrorCode,
  ReplayingTransport,
  type ReplayTransportOptions,
  recordTransport,
  replayTransport,
} from './record-replay';
export {
  limitMessageSize,
  MESSAGE_TOO_LARGE,
  type MessageSizeLimitOptions,
  MessageTooLargeError,
  type MessageTooLargeErrorData,
} from './size-limit';
export { type TransportObserver, tapTransport } from './tap';
export { WrappedTransport } from './wrapped-transport';
