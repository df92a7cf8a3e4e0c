// The few Cloudflare runtime shapes this package touches, written out structurally so that it needs neither
// `@cloudflare/workers-types` nor a `cloudflare:workers` import: any object of the right shape works (workerd's real
// bindings, or a test double).

/** A Durable Object id (`namespace.newUniqueId()`, `idFromName`, `idFromString`). */
export interface DurableObjectIdLike {
  toString(): string;
}

/** What the Worker calls on a Durable Object: its `fetch`. */
export interface DurableObjectStubLike {
  fetch(request: Request): Promise<Response>;
}

/** A Durable Object namespace binding (`env.MCP_SESSIONS`). */
export interface DurableObjectNamespaceLike {
  newUniqueId(): DurableObjectIdLike;
  idFromName(name: string): DurableObjectIdLike;
  /** Throws for a string that is not an id of this namespace. */
  idFromString(id: string): DurableObjectIdLike;
  get(id: DurableObjectIdLike): DurableObjectStubLike;
}

/** One row cursor of `storage.sql.exec`. */
export interface SqlCursorLike<Row> extends Iterable<Row> {
  toArray(): Row[];
  readonly rowsWritten: number;
}

/** The SQLite API of a Durable Object's storage (objects declared with `new_sqlite_classes`). */
export interface SqlStorageLike {
  exec<Row = Record<string, string | number | null>>(
    query: string,
    ...bindings: (string | number | null)[]
  ): SqlCursorLike<Row>;
}

/** A Durable Object's storage: the key-value API, alarms, and (SQLite-backed objects) `sql`. */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(keys: string[]): Promise<number>;
  list<T = unknown>(options?: { prefix?: string; start?: string; limit?: number }): Promise<Map<string, T>>;
  deleteAll(): Promise<void>;
  setAlarm(scheduledTime: number): Promise<void>;
  deleteAlarm(): Promise<void>;
  readonly sql?: SqlStorageLike;
  transactionSync?<T>(closure: () => T): T;
}

/** The state a Durable Object's constructor receives. */
export interface DurableObjectStateLike {
  readonly id: DurableObjectIdLike;
  readonly storage: DurableObjectStorageLike;
  /** Runs `callback` before any event reaches the object (used to load state after a restart). */
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}

/** The Worker's execution context: work that may finish after the response. */
export interface ExecutionContextLike {
  waitUntil(promise: Promise<unknown>): void;
}
