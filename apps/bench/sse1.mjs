import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
const url = process.argv[2];
const client = new Client({ name: 'c', version: '1' });
await client.connect(new StreamableHttpClientTransport(new URL(url)), { protocolVersion: '2025-11-25' });
async function run(n) { const t = performance.now(); for (let i = 0; i < n; i++) await client.callTool({ name: 'echo', arguments: { text: 'hello, bench' } }); return ((performance.now() - t) * 1000 / n).toFixed(0); }
await run(500);
const c0 = process.cpuUsage();
console.log('µs/call', await run(3000), await run(3000), 'client cpu µs/call', ((process.cpuUsage(c0).user + process.cpuUsage(c0).system) / 6000).toFixed(1));
await client.close(); process.exit(0);
