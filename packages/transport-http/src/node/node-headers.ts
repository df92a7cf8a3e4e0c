// The headers of a node request as a web `Headers`, without building one: `get` and `has` (all the handler asks)
// scan `rawHeaders` in place; anything else (iteration, mutation) builds the real `Headers` once and uses it from then
// on, so the answers are always the web-standard ones.

/** @internal A `Headers` view of node's `rawHeaders` (name, value, name, value, …). */
export class NodeHeaders implements Headers {
  readonly #raw: readonly string[];
  #real: Headers | undefined = undefined;

  constructor(rawHeaders: readonly string[]) {
    this.#raw = rawHeaders;
  }

  #headers(): Headers {
    if (this.#real === undefined) {
      const headers = new Headers();
      const raw = this.#raw;
      for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
      this.#real = headers;
    }
    return this.#real;
  }

  get(name: string): string | null {
    if (this.#real !== undefined) return this.#real.get(name);
    const lower = name.toLowerCase();
    const raw = this.#raw;
    let value: string | null = null;
    for (let index = 0; index + 1 < raw.length; index += 2) {
      const candidate = raw[index]!;
      if (candidate.length !== lower.length || candidate.toLowerCase() !== lower) continue;
      // Repeated fields combine with ", ", as `Headers.get` does.
      value = value === null ? raw[index + 1]! : `${value}, ${raw[index + 1]!}`;
    }
    return value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  append(name: string, value: string): void {
    this.#headers().append(name, value);
  }

  delete(name: string): void {
    this.#headers().delete(name);
  }

  set(name: string, value: string): void {
    this.#headers().set(name, value);
  }

  getSetCookie(): string[] {
    return this.#headers().getSetCookie();
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#headers().forEach((value, key) => {
      callback.call(thisArg, value, key, this);
    });
  }

  entries(): HeadersIterator<[string, string]> {
    return this.#headers().entries();
  }

  keys(): HeadersIterator<string> {
    return this.#headers().keys();
  }

  values(): HeadersIterator<string> {
    return this.#headers().values();
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.#headers()[Symbol.iterator]();
  }
}
