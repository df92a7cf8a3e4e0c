export {
  listenOnUnixSocket,
  socketPath,
  UnixSocketClientTransport,
  type UnixSocketListener,
  UnixSocketTransport,
  type UnixSocketTransportOptions,
} from './unix-socket-transport';
