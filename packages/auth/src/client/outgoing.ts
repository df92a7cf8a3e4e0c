// How the OAuth client decorates one outgoing request: the request as sent (and sent again), its `Authorization`
// (Bearer, or DPoP with a proof of the request), and the small promise and response helpers around it.
import type { DpopProver } from './dpop';
import type { StoredTokens } from './store';

/** One request through `fetch`: what it is sent with, and how to send it again. */
export interface Outgoing {
  readonly input: RequestInfo | URL;
  readonly init: RequestInit | undefined;
  /** The request URL: DPoP's `htu` is derived from it. */
  readonly url: URL;
  /** False for a streamed body, which can be sent once only. */
  readonly replayable: boolean;
  /** The input for the next send: the original first, then copies of the spare. */
  next(): RequestInfo | URL;
}

/** `promise`, or the signal's reason as soon as it aborts (the work behind `promise` goes on for other requests). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (signal === null || signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** RFC 9449 §7.1: the token type `DPoP` (case-insensitive) means the access token is bound to the prover's key. */
export function isDpopBound(tokens: StoredTokens): boolean {
  return tokens.tokenType.length === 4 && tokens.tokenType.toLowerCase() === 'dpop';
}

/** The request's own headers, to which the authorization is added. */
function headersOf({ input, init }: Outgoing): Headers {
  return new Headers(input instanceof Request && init?.headers === undefined ? input.headers : init?.headers);
}

export function bearerInit(out: Outgoing, tokens: StoredTokens): RequestInit {
  const headers = headersOf(out);
  headers.set('Authorization', `Bearer ${tokens.accessToken}`);
  return { ...out.init, headers };
}

/** `Authorization: DPoP` and a proof of this request: `htm`, `htu` (the prover drops query and fragment), `ath`. */
export async function dpopInit(out: Outgoing, tokens: StoredTokens, dpop: DpopProver): Promise<RequestInit> {
  const { input, init, url } = out;
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const headers = headersOf(out);
  headers.set('Authorization', `DPoP ${tokens.accessToken}`);
  headers.set('DPoP', await dpop.proof({ method, url, accessToken: tokens.accessToken }));
  return { ...init, headers };
}

/** Cancels a response body nobody reads. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}
