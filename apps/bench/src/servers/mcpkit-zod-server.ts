// The bench server on mcpkit over stdio with zod inputs (`echo` and `big`, see mcpkit-zod-tools.ts), as most users write it.
import { StdioServerTransport } from '@mcpkit/transport-stdio';
import { installCpuReport } from './cpu-report';
import { createMcpkitZodServer } from './mcpkit-zod-tools';

installCpuReport();
await createMcpkitZodServer().connect(new StdioServerTransport());
