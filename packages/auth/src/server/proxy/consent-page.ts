// The page where the user approves one MCP client before the proxy sends them upstream (see the `consent` option).
import { escapeHtml } from './http';
import type { ProxyClient } from './records';

/** What the consent page shows and posts back. */
export interface ConsentPageInput {
  client: ProxyClient;
  redirectUri: string;
  scopes: readonly string[];
  resource: string;
  transactionId: string;
  csrf: string;
  formAction: string;
  cookie: string;
}

/**
 * The consent page, with the cookie that binds its form to this browser. It cannot be framed: a hidden frame would let
 * another site click "Allow" for the user.
 */
export function consentPage(input: ConsentPageInput): Response {
  const name = input.client.client_name ?? input.client.client_id;
  const redirectHost = new URL(input.redirectUri).host;
  const scopes =
    input.scopes.length === 0
      ? '<p>It asks for no particular scope.</p>'
      : `<p>It asks for:</p><ul>${input.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('')}</ul>`;
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Allow ${escapeHtml(name)}?</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem">
<h1>Allow <em>${escapeHtml(name)}</em> to use <code>${escapeHtml(input.resource)}</code>?</h1>
<p>After you sign in, this application receives access on your behalf. It will be sent back to
<strong>${escapeHtml(redirectHost)}</strong> (<code>${escapeHtml(input.redirectUri)}</code>).</p>
${scopes}
<p>Only continue if you started this from an application you trust.</p>
<form method="post" action="${escapeHtml(input.formAction)}">
<input type="hidden" name="transaction" value="${escapeHtml(input.transactionId)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></body></html>`;
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
      'set-cookie': input.cookie,
    },
  });
}
