import { defineCodedError } from '@mcpkit/jsonrpc-core';
import { type Page, paginate } from './pagination';

/** Thrown when a registration is refused (bad name, duplicate, unusable schema). */
export class RegistrationError extends defineCodedError<
  | 'ERR_INVALID_NAME'
  | 'ERR_DUPLICATE'
  | 'ERR_REMOVED'
  | 'ERR_INVALID_EXTENSION'
  | 'ERR_DUPLICATE_EXTENSION'
  | 'ERR_METHOD_CLASH'
>('RegistrationError', '@mcpkit/server/RegistrationError') {}

/** What every registry entry has. */
export interface RegistryEntry<D> {
  key: string;
  enabled: boolean;
  /** The wire definition (tool, prompt, resource, template), rebuilt on update. */
  definition: D;
}

/**
 * Registered things of one kind, in registration order (so lists are deterministic), with a version that changes on
 * every change (for cursors) and a cached array of the enabled definitions (so listing allocates nothing).
 */
export class Registry<E extends RegistryEntry<D>, D> {
  readonly #entries = new Map<string, E>();
  readonly #onChange: () => void;
  #version = 0;
  #enabled: D[] | undefined = undefined;
  #enabledEntries: E[] | undefined = undefined;

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): E | undefined {
    return this.#entries.get(key);
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  add(entry: E): void {
    this.#entries.set(entry.key, entry);
    this.changed();
  }

  /** Renames an entry in place (its position in the list is kept). */
  rename(entry: E, key: string): void {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    for (const candidate of entries) {
      if (candidate === entry) candidate.key = key;
      this.#entries.set(candidate.key, candidate);
    }
    this.changed();
  }

  delete(entry: E): boolean {
    if (this.#entries.get(entry.key) !== entry) return false;
    this.#entries.delete(entry.key);
    this.changed();
    return true;
  }

  /** Records an in-place update of `entry`, re-keying it (position kept) when `key` differs from its key. */
  updated(entry: E, key: string): void {
    if (key !== entry.key) this.rename(entry, key);
    else this.changed();
  }

  changed(): void {
    this.#version++;
    this.#enabled = undefined;
    this.#enabledEntries = undefined;
    this.#onChange();
  }

  /** The enabled entries, in registration order (cached until the next change). */
  enabledEntries(): E[] {
    if (this.#enabledEntries === undefined) {
      this.#enabledEntries = [...this.#entries.values()].filter((entry) => entry.enabled);
    }
    return this.#enabledEntries;
  }

  /** One page of the enabled definitions. */
  page(cursor: unknown, pageSize: number): Page<D> {
    if (this.#enabled === undefined) this.#enabled = this.enabledEntries().map((entry) => entry.definition);
    return paginate(this.#enabled, cursor, pageSize, this.#version);
  }
}
