import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import { isJsonObject } from '@mcpkit/jsonrpc-core';
import { AuthConfigError, TokenVerificationError } from './errors';
import { scopesOfClaims } from './scopes';
import { cachedVerification, type TokenCacheOptions } from './token-cache';
import type { TokenVerifier, TokenVerifyContext } from './token-verifier';

/**
 * How this server authenticates to the introspection endpoint (RFC 7662 requires some authentication).
 * `headers` covers anything else (private_key_jwt, mTLS through a custom fetch): return the headers to add.
 */
export type IntrospectionClientAuth =
  | { method: 'client_secret_basic'; clientId: string; clientSecret: string }
  | { method: 'client_secret_post'; clientId: string; clientSecret: string }
  | { method: 'bearer'; token: string }
  | { method: 'headers'; headers: () => Record<string, string> | Promise<Record<string, string>> };

/** Options for {@link createIntrospectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's `introspection_endpoint`. */
  endpoint: string | URL;
  /** How the resource server authenticates to the introspection endpoint (RFC 7662 requires it): basic, post or headers. */
  clientAuth: IntrospectionClientAuth;
  /** The expected `iss` of the answer, when the server sends one. Default: not checked. */
  issuer?: string | readonly string[];
  /**
   * The expected `aud`. Default: the request's resource. An answer without `aud` is refused unless this is `false`
   * (only for authorization servers that never send it and serve no other resource).
   */
  audience?: string | readonly string[] | false;
  /** Leeway for `exp`/`nbf`, in seconds. Default 5. */
  clockToleranceSeconds?: number;
  /**
   * Remember active answers so each request does not cost a round trip: at most `maxEntries` tokens, each for at
   * most `maxTtlSeconds` and never past its `exp`. Inactive answers are never cached. `false` turns it off (every
   * request asks, so revocation is seen at once). Default `{ maxEntries: 1000, maxTtlSeconds: 60 }`.
   */
  cache?: TokenCacheOptions;
  /** Give up on the endpoint after this long. Default 5000 ms. */
  timeoutMs?: number;
  /** The fetch to use (tests, proxies). Default: global fetch. */
  fetch?: typeof fetch;
}

/** Form encoding of a client id or secret before Basic auth (RFC 6749 §2.3.1). */
function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

function includesAny(actual: unknown, expected: string | readonly string[]): boolean {
  const wanted = typeof expected === 'string' ? [expected] : expected;
  if (typeof actual === 'string') return wanted.includes(actual);
  return Array.isArray(actual) && actual.some((value) => typeof value === 'string' && wanted.includes(value));
}

/**
 * Verifies opaque (or any) tokens by asking the authorization server (RFC 7662 token introspection): `active`,
 * `aud` = this resource, `exp`/`nbf`, optionally `iss`; active answers are cached briefly by token digest.
 *
 * @example
 * const verifier = createIntrospectionVerifier({
 *   endpoint: 'https://auth.example.com/oauth/introspect',
 *   clientAuth: { method: 'client_secret_basic', clientId: 'mcp-server', clientSecret: process.env.SECRET! },
 * });
 */
export function createIntrospectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  let endpoint: URL;
  try {
    endpoint = new URL(options.endpoint);
  } catch {
    throw new AuthConfigError(`\`endpoint\` must be an absolute URL, got "${String(options.endpoint)}"`, {
      option: 'endpoint',
      value: options.endpoint,
    });
  }
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 5000;
  const tolerance = options.clockToleranceSeconds ?? 5;
  const auth = options.clientAuth;

  async function introspect(token: string, context: TokenVerifyContext): Promise<AuthInfo> {
    const form = new URLSearchParams({ token, token_type_hint: 'access_token' });
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (auth.method === 'client_secret_basic') {
      headers.authorization = `Basic ${btoa(`${formEncode(auth.clientId)}:${formEncode(auth.clientSecret)}`)}`;
    } else if (auth.method === 'client_secret_post') {
      form.set('client_id', auth.clientId);
      form.set('client_secret', auth.clientSecret);
    } else if (auth.method === 'bearer') {
      headers.authorization = `Bearer ${auth.token}`;
    } else {
      Object.assign(headers, await auth.headers());
    }
    let body: unknown;
    let status: number;
    try {
      const response = await doFetch(endpoint, {
        method: 'POST',
        headers,
        body: form,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      body = status === 200 ? await response.json() : await response.body?.cancel();
    } catch (error) {
      throw new TokenVerificationError(
        'verifier_unavailable',
        `The introspection endpoint ${endpoint.href} did not answer: ${(error as Error)?.message ?? String(error)}`,
        { reason: 'unreachable', cause: error },
      );
    }
    if (status !== 200 || !isJsonObject(body)) {
      throw new TokenVerificationError(
        'verifier_unavailable',
        status !== 200
          ? `The introspection endpoint ${endpoint.href} answered HTTP ${status}${status === 401 ? ' (check clientAuth)' : ''}`
          : `The introspection endpoint ${endpoint.href} did not answer a JSON object`,
        { reason: 'bad_response', cause: { status } },
      );
    }
    if (body.active !== true) {
      throw new TokenVerificationError('invalid_token', 'The token is not active (revoked, expired or unknown)', {
        reason: 'inactive',
      });
    }
    const now = Date.now() / 1000;
    if (typeof body.exp === 'number' && body.exp + tolerance <= now) {
      throw new TokenVerificationError('invalid_token', 'The token expired; get a new one', {
        reason: 'expired',
        claim: 'exp',
      });
    }
    if (typeof body.nbf === 'number' && body.nbf - tolerance > now) {
      throw new TokenVerificationError('invalid_token', 'The token is not valid yet (nbf)', {
        reason: 'not_yet_valid',
        claim: 'nbf',
      });
    }
    if (options.issuer !== undefined && !includesAny(body.iss, options.issuer)) {
      throw new TokenVerificationError('invalid_token', 'The token was issued by another authorization server', {
        reason: 'issuer',
        claim: 'iss',
      });
    }
    if (options.audience !== false && !includesAny(body.aud, options.audience ?? context.resource)) {
      throw new TokenVerificationError(
        'invalid_token',
        'The token was not issued for this resource (aud); request one with this server as `resource`',
        { reason: 'audience', claim: 'aud' },
      );
    }
    const info: AuthInfo = { token, scopes: scopesOfClaims(body), extra: { introspection: body } };
    if (typeof body.client_id === 'string') info.clientId = body.client_id;
    if (typeof body.sub === 'string') info.subject = body.sub;
    if (typeof body.exp === 'number') info.expiresAt = body.exp;
    return info;
  }

  const verify = cachedVerification(introspect, options.cache ?? {}, { maxTtlSeconds: 60, key: 'digest' });
  return { verify };
}
