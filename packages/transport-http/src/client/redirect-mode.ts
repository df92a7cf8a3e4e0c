// Why POSTs go out with `redirect: 'error'`: with any other mode, Node's fetch (undici) clones every request before
// sending it, teeing the body stream so it could replay it on a redirect. That costs about 50 µs of CPU per call, a
// tenth of a small tools/call. Almost no MCP endpoint redirects, so the transport asks for 'error' and, on the rare
// server that does, repeats the refused POST once with 'follow' and follows from then on. Only done where the refusal
// is recognisable (undici's `cause`, below): in a browser a refused redirect looks like any network failure, and
// repeating a POST after a network failure could run a tool twice.

/** The `fetch` options of a POST that refuses redirects (undici skips its per-request clone only with both). */
export const REFUSE_REDIRECTS = { redirect: 'error', window: null } as const satisfies RequestInit;

/**
 * Whether `fetchImpl` is the runtime's own fetch in Node (undici), where refusing redirects saves the clone and the
 * refusal can be told apart from a network error. A caller's own `fetch` (proxies, OAuth wrappers, tests) keeps the
 * default mode: what it does with `redirect` is its business.
 */
export function canRefuseRedirects(custom: typeof fetch | undefined): boolean {
  if (custom !== undefined) return false;
  const runtime = globalThis as { process?: { versions?: { node?: unknown; bun?: unknown } }; Deno?: unknown };
  return (
    typeof runtime.process?.versions?.node === 'string' &&
    runtime.process.versions.bun === undefined &&
    runtime.Deno === undefined
  );
}

/** Whether a fetch rejection is undici refusing a redirect (so the POST reached a server that answered 3xx). */
export function isRefusedRedirect(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return error instanceof TypeError && cause instanceof Error && cause.message === 'unexpected redirect';
}
