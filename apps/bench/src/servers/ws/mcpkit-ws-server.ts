// The WebSocket bench server on mcpkit: the same `McpServer` (mcpkit-tools.ts) behind `createWebSocketServer`, on
// 127.0.0.1, a free port. WebSocket is mcpkit-only: the official v2 SDK has no WebSocket transport and v1 only a client.
import { createWebSocketServer } from '@mcpkit/transport-websocket/node';
import { installCpuReport } from '../cpu-report';
import { announce } from '../http/http-args';
import { createMcpkitServer } from '../mcpkit-tools';

installCpuReport();
const endpoint = await createWebSocketServer(createMcpkitServer(), {
  port: 0,
  host: '127.0.0.1',
  maxMessageBytes: 64 * 1024 * 1024,
});
announce(endpoint.url);
