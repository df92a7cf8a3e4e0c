// `bench:gateway-cpu` (hop-cpu-built.ts bundles and runs this file): the CPU one gateway hop adds, in one process
// with no I/O (jsonrpc-core's in-memory pairs), so the figure is the code's own cost and not the transports' or the
// machine's noise. direct: a Client calls `echo` on the bench server; gateway: the same Client calls it through a
// front McpServer with the server mounted with an empty namespace (a second in-memory pair upstream). 16 callers at
// once, both eras (ERA=modern or ERA=legacy for one); rounds alternate the routes, each figure the median µs of CPU per
// call; `--out <file>` writes the JSON. Run it under `node --cpu-prof` to see where the hop's time goes.
import { writeFileSync } from 'node:fs';
import { Client } from '@mcpkit/client';
import { Gateway } from '@mcpkit/gateway';
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { McpServer } from '@mcpkit/server';
import { createMcpkitServer } from '../servers/mcpkit-tools';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CALLS = Number(process.env.CALLS ?? 20_000);
const CALLERS = 16;
const ERAS = process.env.ERA === undefined ? ['modern', 'legacy'] : [process.env.ERA];
const outIndex = process.argv.indexOf('--out');
const OUT = outIndex === -1 ? undefined : process.argv[outIndex + 1];

async function connected(server: McpServer, protocolVersion: string): Promise<Client> {
  const [clientSide, serverSide] = createLinkedTransports();
  await server.connect(serverSide);
  const client = new Client({ name: 'hop-cpu', version: '1.0.0' }, { cache: false });
  await client.connect(clientSide, { protocolVersion });
  return client;
}

async function throughGateway(protocolVersion: string): Promise<Client> {
  const upstream = await connected(createMcpkitServer(), protocolVersion);
  const front = new McpServer({ name: 'front', version: '1.0.0' });
  await new Gateway(front).mount('', upstream);
  return connected(front, protocolVersion);
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const round1 = (value: number) => Math.round(value * 10) / 10;
const results: Record<string, Record<string, number>> = {};
for (const era of ERAS) {
  const protocolVersion = era === 'modern' ? '2026-07-28' : '2025-11-25';
  const routes = {
    direct: await connected(createMcpkitServer(), protocolVersion),
    gateway: await throughGateway(protocolVersion),
  };
  for (const client of Object.values(routes)) await run(client, 2_000);
  const samples = { direct: [] as number[], gateway: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['direct', 'gateway'] as const) : (['gateway', 'direct'] as const);
    for (const route of order) samples[route].push(await run(routes[route], CALLS));
  }
  const directUs = median(samples.direct);
  const gatewayUs = median(samples.gateway);
  results[era] = {
    directUsPerCall: round1(directUs),
    gatewayUsPerCall: round1(gatewayUs),
    ratio: Math.round((gatewayUs / directUs) * 100) / 100,
  };
}
const report = {
  schema: 'mcpkit-bench-gateway-cpu/1',
  date: new Date().toISOString(),
  node: process.version,
  callers: CALLERS,
  calls: CALLS,
  rounds: ROUNDS,
  results,
};
if (OUT !== undefined) writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
