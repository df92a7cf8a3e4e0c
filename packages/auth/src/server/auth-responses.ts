import { type BearerChallenge, formatBearerChallenge } from './www-authenticate';

/**
 * A refusal as plain data: the HTTP answer to send instead of serving the request. For servers that write the answer
 * themselves, such as a WebSocket upgrade (`createWebSocketServer`'s `authenticate` hook takes it as it is).
 */
export interface AuthRefusal {
  /** 400, 401, 403, 500 or 503. */
  status: number;
  /** `content-type`, `cache-control` and, for 400/401/403, `www-authenticate` (lower-case names). */
  headers: Record<string, string>;
  /** `{ "error", "error_description" }` as JSON. */
  body: string;
}

/** The refusals this package builds: a class, so an identity is never mistaken for one, whatever fields it has. */
export class BuiltRefusal implements AuthRefusal {
  constructor(
    public status: number,
    public headers: Record<string, string>,
    public body: string,
  ) {}
}

/**
 * An OAuth error answer as data: a small JSON body (`error`, `error_description`) and, for 400/401/403, a Bearer
 * challenge in `WWW-Authenticate`.
 */
export function authRefusal(
  status: number,
  error: string,
  description: string,
  challenge: BearerChallenge | undefined,
): BuiltRefusal {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'cache-control': 'no-store',
  };
  if (challenge !== undefined) headers['www-authenticate'] = formatBearerChallenge(challenge);
  return new BuiltRefusal(status, headers, JSON.stringify({ error, error_description: description }));
}

/** A refusal as a web `Response`. */
export function refusalResponse(refusal: AuthRefusal): Response {
  return new Response(refusal.body, { status: refusal.status, headers: refusal.headers });
}

/** {@link authRefusal} as a web `Response`. */
export function authErrorResponse(
  status: number,
  error: string,
  description: string,
  challenge: BearerChallenge | undefined,
): Response {
  return refusalResponse(authRefusal(status, error, description, challenge));
}
