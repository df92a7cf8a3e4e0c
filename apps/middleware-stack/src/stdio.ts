// The sample server on stdio: `node --import tsx src/stdio.ts`. Logs and spans go to stderr, one JSON object a line.
import { StdioServerTransport } from '@mcpkit/transport-stdio';
import { createStackServer } from './mcp-server';
import { startTelemetry } from './telemetry';

const telemetry = startTelemetry();
const server = createStackServer();
await server.connect(new StdioServerTransport());
process.stderr.write('middleware-stack: ready on stdio\n');
process.stdin.once('end', () => void telemetry.shutdown());
