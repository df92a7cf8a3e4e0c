import { describe } from 'vitest';
import { storeContract } from '../../tasks/test/store-contract';
import { RedisTaskStore } from '../src/tasks/index';
import { noRedis, useRedis } from './redis';

// The TaskStore contract of @mcpkit/tasks (the same tests the in-memory and SQLite stores pass), on Redis.
describe.skipIf(noRedis)('RedisTaskStore', () => {
  const context = useRedis();
  let run = 0;
  storeContract(
    async (clock, maxTasks) =>
      new RedisTaskStore(context.redis, {
        prefix: `contract${run++}:`,
        maxTasks,
        now: () => clock.now,
        sweepIntervalMs: 0,
      }),
  );
});
