import { describe, expect, it } from 'vitest';
import { InMemoryTaskStore } from '../src/index';
import { newTaskId } from '../src/store/index';
import { storeContract } from './store-contract';

describe('InMemoryTaskStore', () => {
  storeContract(
    async (clock, maxTasks) => new InMemoryTaskStore({ maxTasks, now: () => clock.now, sweepIntervalMs: 0 }),
  );

  it('sweeps on its timer without keeping the process alive', async () => {
    let now = 0;
    const store = new InMemoryTaskStore({ now: () => now, sweepIntervalMs: 10 });
    await store.create(
      {
        taskId: newTaskId(),
        owner: null,
        status: 'completed',
        createdAt: 0,
        lastUpdatedAt: 0,
        ttlMs: 5,
        expiresAt: 5,
        era: 'legacy',
        request: { method: 'tools/call', params: {} },
        context: { protocolVersion: '2025-11-25', clientCapabilities: {} },
      },
      { maxLivePerOwner: 1 },
    );
    expect(store.size).toBe(1);
    now = 100;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.size).toBe(0);
    await store.close();
  });
});

describe('newTaskId', () => {
  it('carries 128 random bits as 22 base64url characters, never repeating', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newTaskId()));
    expect(ids.size).toBe(10_000);
    for (const id of [...ids].slice(0, 100)) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Every character position varies (a stuck bit would show as a constant column).
    const columns = Array.from({ length: 21 }, (_, index) => new Set([...ids].map((id) => id[index])).size);
    for (const distinct of columns) expect(distinct).toBeGreaterThan(32);
  });
});
