// `pnpm --filter @mcpkit/app-cluster start` with REDIS_URL set: three instances and the round-robin proxy in front of
// them, until Ctrl-C. Point any MCP client at the URL it prints.
import { startInstance } from './processes';
import { startRoundRobinProxy } from './proxy';

const redisUrl = process.env.REDIS_URL;
if (redisUrl === undefined) {
  console.error('Set REDIS_URL (e.g. redis://127.0.0.1:6379): the instances share that Redis.');
  process.exit(2);
}
const instances = await Promise.all(['a', 'b', 'c'].map((id) => startInstance(id, redisUrl)));
const proxy = await startRoundRobinProxy(
  instances.map((instance) => instance.url),
  Number(process.env.PORT ?? 3000),
);
for (const instance of instances) console.log(`instance ${instance.id}: ${instance.url}`);
console.log(`MCP endpoint (round robin, no affinity): ${proxy.url}`);

const stop = async () => {
  await proxy.close();
  await Promise.all(instances.map((instance) => instance.stop()));
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
