import type { AuthorizationRedirect } from '@mcpkit/auth/client';

// The user's browser, scripted for the tests: follows redirects, clicks Allow on consent pages, and stops at the
// client's redirect URI.

/** What the browser went through, per authorization. */
export interface Visit {
  scope: string | null;
  consentPages: number;
}

/**
 * Plays the user's browser: follows redirects (bounded), submits consent pages (Allow), and stops at the client's
 * redirect URI, whose URL (with code, state and iss) it returns to the OAuth client.
 */
export async function browse(redirect: AuthorizationRedirect, visits: Visit[]): Promise<string> {
  const visit: Visit = { scope: redirect.authorizationUrl.searchParams.get('scope'), consentPages: 0 };
  visits.push(visit);
  let request: Request = new Request(redirect.authorizationUrl);
  for (let hop = 0; hop < 10; hop++) {
    if (request.url.startsWith(redirect.redirectUri)) return request.url;
    const response = await fetch(request, { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
    const location = response.headers.get('location');
    if (response.status === 302 && location !== null) {
      await response.body?.cancel();
      request = new Request(new URL(location, request.url));
      continue;
    }
    const html = response.status === 200 ? await response.text() : '';
    const form = /<form method="post" action="([^"]+)">/.exec(html);
    if (form?.[1] === undefined)
      throw new Error(`the browser got stuck at ${request.url} (${response.status}): ${html}`);
    visit.consentPages++;
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
    request = new Request(form[1].replace(/&#38;/g, '&'), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
      },
      body: new URLSearchParams({ transaction: field('transaction'), csrf: field('csrf'), decision: 'approve' }),
    });
  }
  throw new Error('the browser followed more than 10 redirects');
}
