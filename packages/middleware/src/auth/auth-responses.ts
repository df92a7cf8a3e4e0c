import { type BearerChallenge, formatBearerChallenge } from './www-authenticate';

/**
 * An OAuth error answer: a small JSON body (`error`, `error_description`) and, for 400/401/403, a Bearer challenge
 * in `WWW-Authenticate`.
 */
export function authErrorResponse(
  status: number,
  error: string,
  description: string,
  challenge: BearerChallenge | undefined,
): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'cache-control': 'no-store',
  };
  if (challenge !== undefined) headers['www-authenticate'] = formatBearerChallenge(challenge);
  return new Response(JSON.stringify({ error, error_description: description }), { status, headers });
}
