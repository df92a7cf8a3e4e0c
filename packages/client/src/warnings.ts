import type { ClientOptions } from './options';

/** Reports each warning once, by key, to `onWarning` (default `console.warn`): a flaky server must not flood logs. */
export class Warnings {
  readonly #seen = new Set<string>();
  readonly #onWarning: ClientOptions['onWarning'];

  constructor(onWarning: ClientOptions['onWarning']) {
    this.#onWarning = onWarning;
  }

  once(key: string, message: string, data?: Record<string, unknown>): void {
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    if (this.#onWarning) this.#onWarning(message, data);
    else console.warn(`[@mcpkit/client] ${message}`);
  }
}
