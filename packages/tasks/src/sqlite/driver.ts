/**
 * The part of a synchronous SQLite handle the store uses. Both drivers have it as is: `better-sqlite3`'s `Database`
 * and Node's built-in `node:sqlite` `DatabaseSync` (Node >= 22.13, or 22.5 with `--experimental-sqlite`). Positional
 * `?` parameters only, which both bind the same way.
 */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  close(): unknown;
}

/** A prepared statement of either driver. */
export interface SqliteStatement {
  run(...params: SqliteValue[]): unknown;
  get(...params: SqliteValue[]): unknown;
  all(...params: SqliteValue[]): unknown[];
}

/** What the store binds. */
export type SqliteValue = string | number | null;

/** Which driver opened a database. */
export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

/** A database opened by {@link openSqliteDatabase}, and which driver did it. */
export interface OpenedDatabase {
  db: SqliteDatabase;
  driver: SqliteDriverName;
}

/**
 * Opens (creating it if needed) the SQLite file at `path` with the first driver that works here: the built-in
 * `node:sqlite` where this Node has it, else `better-sqlite3` (an optional peer dependency: install it on Node 20).
 * `prefer` picks one and fails if it cannot load.
 *
 * @example
 * const { db, driver } = await openSqliteDatabase('./tasks.db');
 */
export async function openSqliteDatabase(path: string, prefer?: SqliteDriverName): Promise<OpenedDatabase> {
  const failures: string[] = [];
  if (prefer !== 'better-sqlite3') {
    try {
      // A variable specifier: @types/node 20 does not know node:sqlite, and bundlers must not try to resolve it.
      const builtin = 'node:sqlite';
      const { DatabaseSync } = (await import(builtin)) as {
        DatabaseSync: new (path: string) => SqliteDatabase;
      };
      return { db: new DatabaseSync(path), driver: 'node:sqlite' };
    } catch (error) {
      if (prefer === 'node:sqlite') throw driverError('node:sqlite', error);
      failures.push(`node:sqlite: ${(error as Error).message}`);
    }
  }
  try {
    const optional = 'better-sqlite3';
    const imported = (await import(optional)) as {
      default: new (path: string) => SqliteDatabase;
    };
    return { db: new imported.default(path), driver: 'better-sqlite3' };
  } catch (error) {
    if (prefer === 'better-sqlite3') throw driverError('better-sqlite3', error);
    failures.push(`better-sqlite3: ${(error as Error).message}`);
  }
  throw new Error(
    `No SQLite driver could open ${path}: use Node >= 22.13 (built-in node:sqlite) or install better-sqlite3 (${failures.join('; ')})`,
  );
}

function driverError(driver: SqliteDriverName, error: unknown): Error {
  return new Error(`The SQLite driver ${driver} could not be loaded here: ${(error as Error).message}`, {
    cause: error,
  });
}
