// The bench server on mcpkit over stdio (`echo` and `big`, see mcpkit-tools.ts). Bundled with esbuild before it is
// measured, so the bench runs built code (no tsx in the process).
import { StdioServerTransport } from '@mcpkit/transport-stdio';
import { installCpuReport } from './cpu-report';
import { createMcpkitServer } from './mcpkit-tools';

installCpuReport();
await createMcpkitServer().connect(new StdioServerTransport());
