// npm run demo: the client against the stdio server, showing each built-in at work. Exits non-zero on a surprise.
import { fileURLToPath } from 'node:url';
import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { ToolCallDeniedError } from '@mcpkit/middleware/client';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import { createStackClient } from './client';
import { startTelemetry } from './telemetry';

const telemetry = startTelemetry({
  exporter: { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} },
});
const retried: string[] = [];
const client = createStackClient({
  onRetry: ({ method, delayMs }) => retried.push(`${method} after ${delayMs} ms`),
  log: () => {},
});
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: ['--conditions=@mcpkit/source', '--import', 'tsx', fileURLToPath(new URL('./stdio.ts', import.meta.url))],
    stderr: 'ignore',
  }),
);
const say = (line: string) => process.stdout.write(`${line}\n`);
let surprises = 0;
const expect = (ok: boolean, what: string) => {
  say(`${ok ? '✓' : '✗'} ${what}`);
  if (!ok) surprises++;
};

await client.listTools(); // approval learns the annotations from here
const found = await client.callTool({ name: 'search', arguments: { query: 'milk' } });
expect(found.content[0]?.type === 'text', 'search answered');
await client.callTool({ name: 'search', arguments: { query: 'eggs' } });
const limited = await client.callTool({ name: 'search', arguments: { query: 'flour' } }).catch((error) => error);
expect(JsonRpcError.is(limited) && limited.code === 429, `third search refused: ${limited.message}`);
const denied = await client.callTool({ name: 'delete_note', arguments: { name: 'ideas' } }).catch((error) => error);
expect(ToolCallDeniedError.is(denied), `delete_note refused by approval: ${denied.message}`);
const read = await client.readResource({ uri: 'notes://today' });
expect(
  retried.length === 1,
  `notes://today read after a retry (${retried.join('; ')}): ${JSON.stringify(read.contents[0])}`,
);
const slow = await client.callTool({ name: 'report', arguments: {} }).catch((error) => error);
expect(JsonRpcError.is(slow) && slow.code === 504, `report stopped at its deadline: ${slow.message}`);
await client.close();
await telemetry.shutdown();
say(surprises === 0 ? 'Every built-in behaved as described.' : `${surprises} surprise(s).`);
process.exitCode = surprises === 0 ? 0 : 1;
