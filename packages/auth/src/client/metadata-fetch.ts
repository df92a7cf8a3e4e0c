// Fetching one metadata document: JSON from a well-known URL, where "not there" (404 and friends) is a normal answer
// that moves discovery to the next URL, and anything else is kept to explain a failure. A refusal by the outbound gate
// (an unsafe URL, a body too large or too slow) is not "not there": it stops discovery.
import { AuthorizationError } from './authorization-error';

/** The result of one metadata fetch: the document, or why there was none. */
export type MetadataAttempt =
  | { url: string; document: Record<string, unknown> }
  | { url: string; document?: undefined; status?: number; problem: string };

const ACCEPT = { Accept: 'application/json' };

/** Fetches `url` as a JSON object; never throws (a network failure is an attempt with a problem). */
export async function fetchMetadata(
  url: URL,
  fetchFn: typeof fetch,
  signal: AbortSignal | undefined,
  headers?: HeadersInit,
): Promise<MetadataAttempt> {
  let response: Response;
  try {
    response = await fetchFn(url.href, { headers: { ...ACCEPT, ...headersObject(headers) }, signal });
  } catch (error) {
    if (signal?.aborted || AuthorizationError.is(error)) throw error;
    return { url: url.href, problem: `request failed: ${(error as Error).message}` };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return { url: url.href, status: response.status, problem: `HTTP ${response.status}` };
  }
  try {
    const document = (await response.json()) as unknown;
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      return { url: url.href, status: response.status, problem: 'not a JSON object' };
    }
    return { url: url.href, document: document as Record<string, unknown> };
  } catch {
    return { url: url.href, status: response.status, problem: 'invalid JSON' };
  }
}

function headersObject(headers: HeadersInit | undefined): Record<string, string> {
  return headers === undefined ? {} : Object.fromEntries(new Headers(headers));
}
