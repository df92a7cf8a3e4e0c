// The minimal official v1 client the size metric bundles: connect over stdio, call one tool, close.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const client = new Client({ name: 'size', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: 'node', args: ['server.mjs'] }));
console.log(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
await client.close();
