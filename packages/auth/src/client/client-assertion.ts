// The signed JWT a client presents instead of a secret (RFC 7523 §2.2, `private_key_jwt`). Built fresh for every
// token request: a short lifetime and a random `jti` let the server refuse a replayed assertion.

import { base64url, importJWK, importPKCS8, type JWK, SignJWT } from 'jose';
import { OAuthError } from './oauth-error';

/** RFC 7523 §2.2: the `client_assertion_type` that announces a JWT client assertion. */
export const JWT_BEARER_CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The signing key of a client assertion: a WebCrypto key, a private JWK, or a PEM-encoded PKCS#8 private key. */
export type ClientAssertionKey = CryptoKey | JsonWebKey | string;

/** What {@link createClientAssertion} needs. */
export interface ClientAssertionOptions {
  /** Becomes `iss` and `sub`. */
  clientId: string;
  /** Becomes `aud`: the authorization server's issuer identifier. */
  audience: string;
  /** The signing key: a private JWK, a PKCS#8 PEM string, or a WebCrypto `CryptoKey`. */
  privateKey: ClientAssertionKey;
  /** The JWS algorithm. Default: the JWK's `alg`, else what the key's type implies (P-256 → ES256, RSA → RS256). */
  algorithm?: string;
  /**
   * The algorithms the authorization server accepts (`token_endpoint_auth_signing_alg_values_supported`), in its
   * order. Only used for a PEM key without `algorithm`, whose type is found by trying these first.
   */
  supportedAlgorithms?: readonly string[];
  /** The `kid` header, so a server with several registered keys knows which one to verify with. */
  keyId?: string;
  /** Seconds until `exp` (default 60): long enough for clock skew, short enough to make replay useless. */
  lifetimeSeconds?: number;
}

const DEFAULT_LIFETIME_SECONDS = 60;
// When a PEM key comes with no algorithm, these are tried in turn after the server's own list.
const PEM_FALLBACK_ALGORITHMS = ['RS256', 'ES256', 'ES384', 'ES512', 'PS256', 'EdDSA'];
const EC_CURVE_ALGORITHMS: Record<string, string> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' };
const importedJwks = new WeakMap<object, { algorithm: string; key: CryptoKey }>();

/**
 * Signs a client assertion (RFC 7523 §3): `iss` = `sub` = the client id, `aud` = the authorization server, `iat`,
 * a short `exp` and a random `jti`.
 *
 * @example
 * ```ts
 * const assertion = await createClientAssertion({
 *   clientId: 'my-client',
 *   audience: metadata.issuer,
 *   privateKey: { kty: 'EC', crv: 'P-256', x: '…', y: '…', d: '…' },
 * });
 * body.set('client_assertion_type', JWT_BEARER_CLIENT_ASSERTION_TYPE);
 * body.set('client_assertion', assertion);
 * ```
 */
export async function createClientAssertion(options: ClientAssertionOptions): Promise<string> {
  const { algorithm, key } = await resolveSigningKey(options);
  const now = Math.floor(Date.now() / 1000);
  const header =
    options.keyId === undefined ? { alg: algorithm, typ: 'JWT' } : { alg: algorithm, typ: 'JWT', kid: options.keyId };
  try {
    return await new SignJWT({})
      .setProtectedHeader(header)
      .setIssuer(options.clientId)
      .setSubject(options.clientId)
      .setAudience(options.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + (options.lifetimeSeconds ?? DEFAULT_LIFETIME_SECONDS))
      .setJti(base64url.encode(crypto.getRandomValues(new Uint8Array(16))))
      .sign(key);
  } catch (cause) {
    throw assertionError(`The client assertion could not be signed with ${algorithm}.`, { algorithm }, cause);
  }
}

async function resolveSigningKey(options: ClientAssertionOptions): Promise<{ algorithm: string; key: CryptoKey }> {
  const { privateKey } = options;
  if (typeof privateKey === 'string') return importPem(privateKey, options);
  if (isCryptoKey(privateKey)) {
    const algorithm = options.algorithm ?? jwsAlgorithmOf(privateKey);
    if (algorithm === undefined) {
      throw assertionError(
        `Cannot tell the JWS algorithm of a ${privateKey.algorithm.name} key: set signingAlgorithm.`,
        { keyAlgorithm: privateKey.algorithm.name },
      );
    }
    return { algorithm, key: privateKey };
  }
  return importJwkOnce(privateKey, options.algorithm);
}

async function importJwkOnce(
  jwk: JsonWebKey,
  explicit: string | undefined,
): Promise<{ algorithm: string; key: CryptoKey }> {
  const cached = importedJwks.get(jwk);
  if (cached !== undefined && (explicit === undefined || cached.algorithm === explicit)) return cached;
  if (jwk.d === undefined) {
    throw assertionError('The JWK has no private part ("d"): a client assertion needs the private key.', {
      kty: jwk.kty,
    });
  }
  const algorithm = explicit ?? jwk.alg ?? algorithmOfJwk(jwk);
  if (algorithm === undefined) {
    throw assertionError(`Cannot tell the JWS algorithm of a ${jwk.kty} JWK: set signingAlgorithm or the JWK "alg".`, {
      kty: jwk.kty,
      crv: jwk.crv,
    });
  }
  let key: CryptoKey | Uint8Array;
  try {
    key = await importJWK(jwk as JWK, algorithm);
  } catch (cause) {
    throw assertionError(`The JWK cannot be used with ${algorithm}.`, { algorithm, kty: jwk.kty, crv: jwk.crv }, cause);
  }
  if (key instanceof Uint8Array) {
    throw assertionError('A symmetric JWK cannot sign a private_key_jwt assertion: use an asymmetric private key.', {
      kty: jwk.kty,
    });
  }
  const imported = { algorithm, key };
  importedJwks.set(jwk, imported);
  return imported;
}

async function importPem(pem: string, options: ClientAssertionOptions): Promise<{ algorithm: string; key: CryptoKey }> {
  if (!pem.includes('-----BEGIN PRIVATE KEY-----')) {
    throw assertionError('The PEM key is not PKCS#8 ("-----BEGIN PRIVATE KEY-----"): convert it, or pass a JWK.', {
      pemLabel: /-----BEGIN ([A-Z ]+)-----/.exec(pem)?.[1] ?? 'none',
    });
  }
  // PKCS#8 does not say which JWS algorithm to use; without one configured, try the server's choices, then common ones.
  const candidates =
    options.algorithm === undefined
      ? [...new Set([...(options.supportedAlgorithms ?? []), ...PEM_FALLBACK_ALGORITHMS])]
      : [options.algorithm];
  let lastError: unknown;
  for (const algorithm of candidates) {
    try {
      return { algorithm, key: await importPKCS8(pem, algorithm) };
    } catch (error) {
      lastError = error;
    }
  }
  throw assertionError(
    `The PEM private key could not be imported for ${candidates.join(', ')}: check the key and signingAlgorithm.`,
    { triedAlgorithms: candidates },
    lastError,
  );
}

function isCryptoKey(value: unknown): value is CryptoKey {
  return typeof CryptoKey !== 'undefined' && value instanceof CryptoKey;
}

/**
 * The JWS algorithm a WebCrypto private key signs with (P-256 → ES256, RSASSA-PKCS1-v1_5/SHA-256 → RS256, Ed25519 →
 * EdDSA), or undefined for a key that cannot sign a JWS.
 *
 * @example
 * ```ts
 * const { privateKey } = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
 * jwsAlgorithmOf(privateKey); // 'ES256'
 * ```
 */
export function jwsAlgorithmOf(key: CryptoKey): string | undefined {
  const algorithm = key.algorithm as KeyAlgorithm & { namedCurve?: string; hash?: { name: string } };
  const hashBits = algorithm.hash?.name.replace('SHA-', '');
  switch (algorithm.name) {
    case 'ECDSA':
      return algorithm.namedCurve === undefined ? undefined : EC_CURVE_ALGORITHMS[algorithm.namedCurve];
    case 'RSASSA-PKCS1-v1_5':
      return hashBits === undefined ? undefined : `RS${hashBits}`;
    case 'RSA-PSS':
      return hashBits === undefined ? undefined : `PS${hashBits}`;
    case 'Ed25519':
      return 'EdDSA';
    default:
      return undefined;
  }
}

function algorithmOfJwk(jwk: JsonWebKey): string | undefined {
  if (jwk.kty === 'EC') return jwk.crv === undefined ? undefined : EC_CURVE_ALGORITHMS[jwk.crv];
  if (jwk.kty === 'RSA') return 'RS256';
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  return undefined;
}

function assertionError(message: string, data: Record<string, unknown>, cause?: unknown): OAuthError {
  return new OAuthError('ERR_CLIENT_ASSERTION', message, { source: 'client', data, cause });
}
