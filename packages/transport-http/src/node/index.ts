// @mcpkit/transport-http/node: the web-standard handler on node:http.

export { type ListeningServer, type ListenOptions, listen } from './listen';
export {
  type NodeHandlerOptions,
  type NodeRequestHandler,
  toNodeHandler,
  type WebHandler,
  writeResponse,
} from './node-handler';
