// The HTTP shapes of an OAuth endpoint: JSON bodies that are never cached, RFC 6749 error bodies, redirects carrying
// parameters, and a size-limited form body reader.
import { readLimitedText } from '../../shared/body';

/** Browser-based MCP clients call metadata, registration and token endpoints with `fetch` from another origin. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
  'access-control-max-age': '600',
};

/** The largest form or JSON body an OAuth endpoint reads (64 KiB). */
export const MAX_BODY_BYTES = 64 * 1024;

/** A JSON response; `no-store` because token and registration responses carry secrets (RFC 6749 §5.1). */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      ...CORS_HEADERS,
      ...headers,
    },
  });
}

/** An OAuth error body (RFC 6749 §5.2, RFC 7591 §3.2.2). */
export function oauthErrorResponse(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse({ error, error_description: description }, status, headers);
}

/** A 302 to `target` with `params` added to its query (values undefined are left out). */
export function redirectTo(target: string | URL, params: Record<string, string | undefined>): Response {
  const url = new URL(target);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return new Response(null, { status: 302, headers: { location: url.href, 'cache-control': 'no-store' } });
}

/** A small HTML page for errors the user sees in the browser, where redirecting to the client would be unsafe. */
export function htmlErrorPage(status: number, title: string, detail: string): Response {
  const body = `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>`;
  return new Response(body, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Reads an `application/x-www-form-urlencoded` body; undefined when it is too large or of another type. */
export async function readForm(request: Request): Promise<URLSearchParams | undefined> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return undefined;
  const text = await readLimitedText(request, MAX_BODY_BYTES);
  return text === undefined ? undefined : new URLSearchParams(text);
}
