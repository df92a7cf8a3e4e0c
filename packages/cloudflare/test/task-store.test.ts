import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { storeContract } from '../../tasks/test/store-contract';
import type { DurableObjectStorageLike, SqlStorageLike } from '../src/platform';
import { DurableObjectTaskStore } from '../src/task-store';

// DurableObjectTaskStore against the TaskStore contract every store passes, on SQLite through an adapter with the
// shape of a Durable Object's `storage.sql` (exec with positional bindings, a cursor with toArray and rowsWritten).
// apps/edge runs it in workerd, on a real Durable Object, across a restart.

function sqlStorage(): DurableObjectStorageLike {
  const db = new Database(':memory:');
  const sql: SqlStorageLike = {
    exec(query, ...bindings) {
      const statement = db.prepare(query);
      if (statement.reader) {
        const rows = statement.all(...bindings) as never[];
        return Object.assign(rows[Symbol.iterator](), { toArray: () => rows, rowsWritten: 0 }) as never;
      }
      const outcome = statement.run(...bindings);
      return Object.assign([][Symbol.iterator](), { toArray: () => [], rowsWritten: outcome.changes }) as never;
    },
  };
  return { sql } as DurableObjectStorageLike;
}

describe('DurableObjectTaskStore', () => {
  storeContract(
    async (clock, maxTasks) => new DurableObjectTaskStore(sqlStorage(), { maxTasks, now: () => clock.now }),
  );

  it('needs a SQLite-backed object, and says so', () => {
    expect(() => new DurableObjectTaskStore({} as DurableObjectStorageLike)).toThrow(/new_sqlite_classes/);
  });
});
