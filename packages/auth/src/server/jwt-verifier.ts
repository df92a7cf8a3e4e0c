import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JSONWebKeySet,
  type JWSAlgorithm,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import { AuthConfigError, type TokenRefusalReason, TokenVerificationError } from './errors';
import { scopesOfClaims } from './scopes';
import { cachedVerification, type TokenCacheOptions } from './token-cache';
import type { TokenVerifier, TokenVerifyContext } from './token-verifier';

/** Where the JWT verifier gets its keys: exactly one of these. */
export type JwtKeySource =
  /** The authorization server's JWKS URL; keys are fetched, cached and refetched on an unknown `kid` (jose). */
  | { jwksUrl: string | URL; jwksTimeoutMs?: number; jwksCacheMaxAgeMs?: number }
  /** A key set you hold (tests, a single-tenant server with pinned keys). */
  | { keySet: JSONWebKeySet }
  /** A jose key resolver, for anything else (several issuers, keys from a KMS). */
  | { getKey: JWTVerifyGetKey };

/** Options for {@link createJwtVerifier}. */
export type JwtVerifierOptions = JwtKeySource & {
  /** The expected `iss`: the authorization server's issuer identifier (or several). Required. */
  issuer: string | readonly string[];
  /**
   * The expected `aud`. Default: the resource of the request (`TokenVerifyContext.resource`), which is what RFC 8707
   * makes the authorization server put there.
   */
  audience?: string | readonly string[];
  /**
   * Signature algorithms accepted. Default: the asymmetric ones (RS*, PS*, ES*, EdDSA, Ed25519); `none` and the HMAC
   * ones are never accepted unless listed here (HS* only works with a `getKey` that returns a secret).
   */
  algorithms?: readonly JWSAlgorithm[];
  /** Leeway for `exp` and `nbf`, in seconds, for clocks that drift. Default 5. */
  clockToleranceSeconds?: number;
  /** Expected `typ` header, such as `at+jwt` (RFC 9068). Default: not checked. */
  typ?: string;
  /** Refuse tokens without `exp` (a token that never expires). Default true. */
  requireExpiry?: boolean;
  /**
   * Remember accepted tokens so a client's next requests with the same token skip the signature check: at most
   * `maxEntries` tokens, each for at most `maxTtlSeconds` and never past its `exp`. Keys are removed from the JWKS
   * only at rotation or compromise; the TTL bounds how long a token signed by a removed key is still accepted.
   * `false` verifies every time. Default `{ maxEntries: 1000, maxTtlSeconds: 60 }`.
   */
  cache?: TokenCacheOptions;
};

const DEFAULT_ALGORITHMS: readonly JWSAlgorithm[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

function keyResolver(options: JwtKeySource): JWTVerifyGetKey {
  if ('jwksUrl' in options && options.jwksUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(options.jwksUrl);
    } catch {
      throw new AuthConfigError(`\`jwksUrl\` must be an absolute URL, got "${String(options.jwksUrl)}"`, {
        option: 'jwksUrl',
        value: options.jwksUrl,
      });
    }
    return createRemoteJWKSet(url, {
      timeoutDuration: options.jwksTimeoutMs ?? 5000,
      cacheMaxAge: options.jwksCacheMaxAgeMs ?? 10 * 60_000,
    });
  }
  if ('keySet' in options && options.keySet !== undefined) return createLocalJWKSet(options.keySet);
  if ('getKey' in options && typeof options.getKey === 'function') return options.getKey;
  throw new AuthConfigError('The JWT verifier needs one key source: `jwksUrl`, `keySet` or `getKey`', {
    option: 'jwksUrl',
  });
}

const CLAIM_REASONS: Record<string, TokenRefusalReason> = {
  aud: 'audience',
  iss: 'issuer',
  nbf: 'not_yet_valid',
  exp: 'expired',
  typ: 'type',
};

/** Maps what jose threw to invalid_token (the token's fault) or verifier_unavailable (ours). */
function refusal(error: unknown): TokenVerificationError {
  if (error instanceof errors.JWTExpired) {
    return new TokenVerificationError('invalid_token', 'The token expired; get a new one', {
      reason: 'expired',
      claim: 'exp',
      cause: error,
    });
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    const reason: TokenRefusalReason =
      error.reason === 'missing' ? 'missing_claim' : (CLAIM_REASONS[error.claim] ?? 'malformed');
    const text =
      reason === 'audience'
        ? 'The token was not issued for this resource (aud); request one with this server as `resource`'
        : reason === 'not_yet_valid'
          ? 'The token is not valid yet (nbf)'
          : `The token's "${error.claim}" claim is not acceptable (${error.reason})`;
    return new TokenVerificationError('invalid_token', text, { reason, claim: error.claim, cause: error });
  }
  if (error instanceof errors.JWKSTimeout) {
    return new TokenVerificationError('verifier_unavailable', 'The authorization server keys (JWKS) timed out', {
      reason: 'unreachable',
      cause: error,
    });
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new TokenVerificationError('invalid_token', 'The token signature does not verify', {
      reason: 'signature',
      cause: error,
    });
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return new TokenVerificationError('invalid_token', 'The token is signed with an algorithm this server refuses', {
      reason: 'algorithm',
      cause: error,
    });
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return new TokenVerificationError('invalid_token', 'No key of the authorization server matches the token', {
      reason: 'unknown_key',
      cause: error,
    });
  }
  if (error instanceof errors.JOSEError) {
    return new TokenVerificationError('invalid_token', 'The token is not a well-formed signed JWT', {
      reason: 'malformed',
      cause: error,
    });
  }
  // Not jose's verdict on the token: fetching the JWKS failed (network, non-200, bad JSON).
  return new TokenVerificationError(
    'verifier_unavailable',
    `The authorization server keys could not be fetched: ${(error as Error)?.message ?? String(error)}`,
    { reason: 'unreachable', cause: error },
  );
}

function identityOf(token: string, payload: JWTPayload): AuthInfo {
  const info: AuthInfo = {
    token,
    scopes: scopesOfClaims(payload as { scope?: unknown; scp?: unknown }),
    extra: { claims: payload },
  };
  const clientId = payload.client_id ?? payload.azp;
  if (typeof clientId === 'string') info.clientId = clientId;
  if (typeof payload.sub === 'string') info.subject = payload.sub;
  if (typeof payload.exp === 'number') info.expiresAt = payload.exp;
  return info;
}

/**
 * Verifies JWT access tokens with jose: signature (keys from a JWKS URL or a key set), `iss`, `aud` = this resource
 * (RFC 8707), `exp`/`nbf` with a small clock tolerance, and an algorithm allow-list. Scopes come from `scope` or
 * `scp`, the client from `client_id` or `azp`, the user from `sub`; all claims are in `extra.claims`.
 *
 * @example
 * const verifier = createJwtVerifier({
 *   issuer: 'https://auth.example.com',
 *   jwksUrl: 'https://auth.example.com/.well-known/jwks.json',
 * });
 * const auth = await verifier.verify(token, { resource: 'https://mcp.example.com/mcp' });
 */
export function createJwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  if (typeof options.issuer !== 'string' && !Array.isArray(options.issuer)) {
    throw new AuthConfigError('The JWT verifier needs `issuer`: the issuer identifier of the authorization server', {
      option: 'issuer',
      value: options.issuer,
    });
  }
  const getKey = keyResolver(options);
  const issuer = typeof options.issuer === 'string' ? options.issuer : [...options.issuer];
  const fixedAudience =
    options.audience === undefined
      ? undefined
      : typeof options.audience === 'string'
        ? options.audience
        : [...options.audience];
  const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
  const clockTolerance = options.clockToleranceSeconds ?? 5;
  const requiredClaims = options.requireExpiry === false ? [] : ['exp'];
  const typ = options.typ;
  async function verifySignedToken(token: string, context: TokenVerifyContext): Promise<AuthInfo> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, {
        issuer,
        audience: fixedAudience ?? context.resource,
        algorithms,
        clockTolerance,
        requiredClaims,
        ...(typ === undefined ? {} : { typ }),
      }));
    } catch (error) {
      throw refusal(error);
    }
    return identityOf(token, payload);
  }
  return { verify: cachedVerification(verifySignedToken, options.cache ?? {}, { maxTtlSeconds: 60, key: 'token' }) };
}
