// The Cloudflare deployment: 2026-07-28 and legacy stateless requests in the Worker, each legacy session in a Durable
// Object. `wrangler dev` runs it locally (see README.md).

import { createMcpWorker, defineMcpSessionObject } from '@mcpkit/cloudflare';
import { buildServer } from './server';

export const McpSession = defineMcpSessionObject({ server: buildServer });

export default createMcpWorker({ server: buildServer, sessions: 'MCP_SESSIONS' });
