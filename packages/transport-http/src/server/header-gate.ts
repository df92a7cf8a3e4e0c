// How a POST waits before it commits to its status.

/**
 * Holds a POST's answer until the server accepted its one request (its middleware passed: `MessageInfo.onAccepted`)
 * or anything is sent for it. A response that comes first and asks for an HTTP status of its own (a refusal: see
 * `httpRefusalOf`) then becomes that HTTP answer instead of the usual one (a 200 SSE stream; legacy SSE's 202).
 */
export class HeaderGate<A> {
  /** `undefined`: go on with the SSE stream; an answer: send that instead. */
  readonly answer: Promise<A | undefined>;
  #resolve!: (answer: A | undefined) => void;
  #settled = false;

  constructor() {
    this.answer = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  get settled(): boolean {
    return this.#settled;
  }

  open(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(undefined);
  }

  refuse(answer: A): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(answer);
  }
}
