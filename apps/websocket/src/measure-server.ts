// The server side of src/measure.ts, in its own process: the sample's McpServer over stdio (`stdio`) or over
// WebSocket (`ws`). In `ws` mode it talks to its parent over the IPC channel: it sends `{ url }` once listening and
// answers `'memory'` with `process.memoryUsage()` taken after a full GC (run it with --expose-gc).
import { StdioServerTransport } from '@mcpkit/transport-stdio';
import { createWebSocketServer } from '@mcpkit/transport-websocket/node';
import { createMcpServer } from './mcp-server';

const mode = process.argv[2];
const mcp = createMcpServer();

if (mode === 'stdio') {
  await mcp.connect(new StdioServerTransport());
} else if (mode === 'ws') {
  const endpoint = await createWebSocketServer(mcp, { port: 0, host: '127.0.0.1' });
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', (message) => {
    if (message !== 'memory') return;
    if (gc === undefined) throw new Error('measure-server: start it with --expose-gc to report memory');
    // Twice: the first pass can leave objects that only become unreachable once finalizers ran.
    gc();
    gc();
    const { heapUsed, rss } = process.memoryUsage();
    process.send?.({ heapUsed, rss, connections: endpoint.connections });
  });
  process.on('disconnect', () => {
    void endpoint.close().then(() => process.exit(0));
  });
  process.send?.({ url: endpoint.url });
} else {
  console.error('usage: measure-server.ts stdio|ws');
  process.exit(2);
}
