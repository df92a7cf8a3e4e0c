// @mcpkit/tasks/sqlite: a durable TaskStore on SQLite (node:sqlite on Node >= 22.13, better-sqlite3 anywhere).

export {
  type OpenedDatabase,
  openSqliteDatabase,
  type SqliteDatabase,
  type SqliteDriverName,
  type SqliteStatement,
  type SqliteValue,
} from './driver';
export { type OpenSqliteTaskStoreOptions, SqliteTaskStore, type SqliteTaskStoreOptions } from './sqlite-store';
