// The HTTP bench server on mcpkit: one `McpServer` (mcpkit-tools.ts) behind `createStreamableHttpHandler` and the
// node adapter's `listen`, on 127.0.0.1, a free port. Modes: sessions with JSON or SSE responses, legacy stateless
// (`sessions: false`, SSE like the official stateless transports), and 2026-07-28 (`auto` responses: JSON here).
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { installCpuReport } from '../cpu-report';
import { createMcpkitServer } from '../mcpkit-tools';
import { announce, httpMode } from './http-args';

installCpuReport();
const mode = httpMode();
const handler = createStreamableHttpHandler(createMcpkitServer(), {
  sessions: mode === 'stateful-json' || mode === 'stateful-sse',
  responseMode: mode === 'stateful-json' ? 'json' : mode === 'modern' ? 'auto' : 'sse',
  maxSessions: 100_000,
  maxBodyBytes: 64 * 1024 * 1024,
});
const { url } = await listen(handler, { port: 0, host: '127.0.0.1' });
announce(url);
