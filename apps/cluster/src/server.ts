// One instance as its own process: `tsx src/server.ts --id a --port 0` with REDIS_URL and MCP_STATE_SECRET set;
// `--local` runs it without Redis, on the in-process defaults. There is no default secret: every instance of a cluster
// must sign `requestState` with the same one, and a secret written in a sample ends up in deployments copied from it,
// where anyone who reads the sample can forge state. So a shared instance refuses to start without it, and `--local`
// (one instance, nothing to share) generates a random one and says so.
// Prints `listening <url> <id>` once it serves.
import { randomBytes } from 'node:crypto';
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

let requestStateSecret = process.env.MCP_STATE_SECRET ?? '';
if (requestStateSecret === '') {
  if (!values.local) {
    console.error(
      'MCP_STATE_SECRET is not set: every instance of the cluster must sign requestState with the same secret ' +
        '(e.g. MCP_STATE_SECRET=$(openssl rand -base64 32)); refusing to start without one.',
    );
    process.exit(2);
  }
  requestStateSecret = randomBytes(32).toString('base64url');
  console.error(
    'MCP_STATE_SECRET is not set: generated a random requestState secret for this single --local instance.',
  );
}

const instance = await createClusterInstance({
  redisUrl,
  instanceId: values.id,
  requestStateSecret,
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
