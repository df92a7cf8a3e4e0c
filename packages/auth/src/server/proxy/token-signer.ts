// The proxy's access tokens: JWTs (RFC 9068 profile) it signs itself, with the MCP server as audience, so the MCP
// server verifies them against the proxy's JWKS and never sees, or accepts, an upstream token.
import { exportJWK, generateKeyPair, importJWK, type JSONWebKeySet, type JWK, SignJWT } from 'jose';
import { randomToken } from '../../shared/random';
import type { ProxySigningKey } from './options';

/** The claims of one access token, before signing. */
export interface AccessTokenClaims {
  issuer: string;
  audience: string;
  clientId: string;
  scopes: readonly string[];
  subject: string | undefined;
  extra: Record<string, unknown> | undefined;
  issuedAt: number;
  expiresAt: number;
}

interface ReadyKey {
  readonly key: CryptoKey | Uint8Array;
  readonly alg: string;
  readonly kid: string;
  readonly publicJwk: JWK;
}

const REGISTERED = new Set(['iss', 'aud', 'sub', 'exp', 'iat', 'nbf', 'jti', 'client_id', 'scope']);

/** Signs access tokens with one key, generated on first use when none is given. */
export class TokenSigner {
  readonly #given: ProxySigningKey | undefined;
  #ready: Promise<ReadyKey> | undefined;

  constructor(key?: ProxySigningKey) {
    this.#given = key;
  }

  /** The public JWKS (RFC 7517) verifiers fetch from the proxy's `jwks_uri`. */
  async jwks(): Promise<JSONWebKeySet> {
    const ready = await this.#key();
    return { keys: [ready.publicJwk] };
  }

  /** A signed access token (`typ: at+jwt`, RFC 9068). */
  async sign(claims: AccessTokenClaims): Promise<string> {
    const ready = await this.#key();
    const payload: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(claims.extra ?? {})) if (!REGISTERED.has(name)) payload[name] = value;
    payload.client_id = claims.clientId;
    if (claims.scopes.length > 0) payload.scope = claims.scopes.join(' ');
    const jwt = new SignJWT(payload)
      .setProtectedHeader({ alg: ready.alg, kid: ready.kid, typ: 'at+jwt' })
      .setIssuer(claims.issuer)
      .setAudience(claims.audience)
      .setIssuedAt(claims.issuedAt)
      .setExpirationTime(claims.expiresAt)
      .setJti(randomToken(16));
    if (claims.subject !== undefined) jwt.setSubject(claims.subject);
    return jwt.sign(ready.key);
  }

  #key(): Promise<ReadyKey> {
    this.#ready ??= this.#load();
    return this.#ready;
  }

  async #load(): Promise<ReadyKey> {
    const given = this.#given;
    if (given !== undefined) {
      const key = 'kty' in given.privateKey ? await importJWK(given.privateKey as JWK, given.alg) : given.privateKey;
      const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = given.publicJwk;
      return {
        key: key as CryptoKey | Uint8Array,
        alg: given.alg,
        kid: given.kid,
        publicJwk: { ...publicJwk, kid: given.kid, alg: given.alg, use: 'sig' },
      };
    }
    // Not extractable: only the public half ever leaves WebCrypto.
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const kid = randomToken(8);
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
    return { key: privateKey, alg: 'ES256', kid, publicJwk };
  }
}
