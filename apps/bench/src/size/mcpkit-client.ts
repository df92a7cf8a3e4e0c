// The minimal mcpkit client the size metric bundles: connect over stdio, call one tool, close. `LeanClient` is `Client`
// without the bundled JSON Schema validator (the `echo` tool declares no outputSchema, so nothing here needs one), as
// the server side measures `McpToolServer`.
import { LeanClient } from '@mcpkit/client';
import { StdioClientTransport } from '@mcpkit/transport-stdio';

const client = new LeanClient({ name: 'size', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: 'node', args: ['server.mjs'] }));
console.log(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
await client.close();
