// The minimal official v2 client the size metric bundles: connect over stdio, call one tool, close.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const client = new Client({ name: 'size', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: 'node', args: ['server.mjs'] }));
console.log(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
await client.close();
