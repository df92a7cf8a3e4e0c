// One instance as its own process: `tsx src/server.ts --id a --port 0` with REDIS_URL (and MCP_STATE_SECRET) set;
// `--local` runs it without Redis, on the in-process defaults.
// Prints `listening <url> <id>` once it serves.
import { parseArgs } from 'node:util';
import { listen } from '@mcpkit/transport-http/node';
import { createClusterInstance } from './instance';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    id: { type: 'string' },
    port: { type: 'string', default: '0' },
    local: { type: 'boolean', default: false },
  },
});
const redisUrl = process.env.REDIS_URL ?? (values.local ? '' : undefined);
if (redisUrl === undefined || values.id === undefined) {
  console.error('usage: REDIS_URL=redis://127.0.0.1:6379 tsx src/server.ts --id <name> [--port <port>] [--local]');
  process.exit(2);
}

const instance = await createClusterInstance({
  redisUrl,
  instanceId: values.id,
  requestStateSecret: process.env.MCP_STATE_SECRET ?? 'cluster-demo-secret: set MCP_STATE_SECRET in production',
  // --local: no Redis, the in-process defaults (the bench's one-instance baseline).
  shared: !values.local,
});
const listening = await listen(instance.handler, { port: Number(values.port), host: '127.0.0.1' });
console.log(`listening ${listening.url} ${values.id}`);

const stop = async () => {
  await listening.close();
  await instance.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
