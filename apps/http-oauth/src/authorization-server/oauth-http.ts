// Small HTTP helpers of the demo authorization server: JSON and OAuth error responses, redirects, PKCE, random ids.

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      // Browser-based MCP clients call discovery, registration and the token endpoint with fetch.
      'access-control-allow-origin': '*',
    },
  });
}

export function oauthError(status: number, error: string, description: string): Response {
  return json({ error, error_description: description }, status);
}

export function redirect(target: string, params: Record<string, string | undefined>): Response {
  const url = new URL(target);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return new Response(null, { status: 302, headers: { location: url.href, 'cache-control': 'no-store' } });
}

export function randomId(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');
}

export async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return Buffer.from(digest).toString('base64url');
}
