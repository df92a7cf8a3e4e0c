export {
  DEFAULT_INHERITED_ENV,
  ServerProcessExitedError,
  type StderrMode,
  StdioClientTransport,
  type StdioClientTransportOptions,
} from './client';
export { redirectConsoleToStderr, StdioServerTransport, type StdioServerTransportOptions } from './server';
export { StreamTransport, type StreamTransportOptions, UnwrittenMessagesError } from './stream-transport';
