// What many sessions declare alike, kept once: a server with thousands of idle legacy sessions from the same client
// software holds one `clientInfo` and one `clientCapabilities` object for them all instead of one per session. The
// table is bounded (a value past it is simply not shared) and the shared values are frozen, so no session can change
// another's.

const MAX_ENTRIES = 256;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/** A bounded table of equal JSON values: `intern(value)` returns the one frozen copy of every value equal to it. */
export class JsonInterner {
  readonly #table = new Map<string, unknown>();

  intern<T>(value: T): T {
    if (typeof value !== 'object' || value === null) return value;
    const key = JSON.stringify(value);
    const known = this.#table.get(key);
    if (known !== undefined) return known as T;
    if (this.#table.size >= MAX_ENTRIES) return value;
    this.#table.set(key, deepFreeze(value));
    return value;
  }
}
