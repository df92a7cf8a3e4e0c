// `node --conditions=@mcpkit/source --import tsx src/gateway/hop-cpu.ts`: the CPU one gateway hop adds, in one process
// with no I/O (jsonrpc-core's in-memory pairs), so the figure is the code's own cost and not the transports' or the
// machine's noise. direct: a Client calls `echo` on the bench server; gateway: the same Client calls it through a
// front McpServer with the server mounted with an empty namespace (a second in-memory pair upstream). 16 callers at
// once, both eras; rounds alternate the routes, each figure the median µs of CPU per call. Run it under
// `node --cpu-prof` to see where the hop's time goes.
import { Client } from '@mcpkit/client';
import { Gateway } from '@mcpkit/gateway';
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { McpServer } from '@mcpkit/server';
import { createMcpkitServer } from '../servers/mcpkit-tools';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CALLS = Number(process.env.CALLS ?? 20_000);
const CALLERS = 16;
const ERA = process.env.ERA === 'legacy' ? 'legacy' : 'modern';
const protocolVersion = ERA === 'modern' ? '2026-07-28' : '2025-11-25';

async function connected(server: McpServer): Promise<Client> {
  const [clientSide, serverSide] = createLinkedTransports();
  await server.connect(serverSide);
  const client = new Client({ name: 'hop-cpu', version: '1.0.0' }, { cache: false });
  await client.connect(clientSide, { protocolVersion });
  return client;
}

async function direct(): Promise<Client> {
  return connected(createMcpkitServer());
}

async function throughGateway(): Promise<Client> {
  const upstream = await connected(createMcpkitServer());
  const front = new McpServer({ name: 'front', version: '1.0.0' });
  await new Gateway(front).mount('', upstream);
  return connected(front);
}

async function run(client: Client, calls: number): Promise<number> {
  const started = process.cpuUsage();
  let left = calls;
  const caller = async () => {
    while (left-- > 0) {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
      if ((result.content[0] as { text?: string } | undefined)?.text !== 'hello') throw new Error('wrong echo');
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}

const routes = { direct: await direct(), gateway: await throughGateway() };
for (const client of Object.values(routes)) await run(client, 2_000);
const samples: Record<string, number[]> = { direct: [], gateway: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? (['direct', 'gateway'] as const) : (['gateway', 'direct'] as const);
  for (const route of order) samples[route]?.push(await run(routes[route], CALLS));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const directUs = median(samples.direct as number[]);
const gatewayUs = median(samples.gateway as number[]);
process.stdout.write(
  `${JSON.stringify({ era: ERA, callers: CALLERS, calls: CALLS, rounds: ROUNDS, directUsPerCall: Math.round(directUs * 10) / 10, gatewayUsPerCall: Math.round(gatewayUs * 10) / 10, ratio: Math.round((gatewayUs / directUs) * 100) / 100 })}\n`,
);
process.exit(0);
