// DPoP (RFC 9449): tokens bound to a key the client holds, so a stolen token is useless without it. Every request to
// the token endpoint or the MCP server carries a fresh proof JWT signed by that key; servers may demand a nonce they
// hand out in `DPoP-Nonce`, which the prover remembers per origin.

import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { jwsAlgorithmOf } from './client-assertion';
import { OAuthError } from './oauth-error';

/** What one proof is for. */
export interface DpopProofOptions {
  /** The HTTP method of the request (`htm`). */
  method: string;
  /** The request URL; `htu` is this without query, fragment and credentials. */
  url: string | URL;
  /** The DPoP-bound access token sent with the request: its hash becomes `ath` (resource requests only). */
  accessToken?: string;
  /** The nonce to use; default: the last one this origin sent. */
  nonce?: string;
}

// Nonces are kept per origin; a client talks to few servers, and the bound keeps a long-lived prover small.
const MAX_REMEMBERED_NONCES = 32;
const encoder = new TextEncoder();

/**
 * Holds a DPoP key pair and makes the proofs. Keep one prover per client session: tokens (and refresh tokens of public
 * clients) are bound to its key, so a new key means new tokens.
 *
 * @example
 * ```ts
 * const dpop = await DpopProver.generate();
 * const tokens = await requestToken({ authorizationServer, credentials, grant, dpop });
 * const headers = await dpop.resourceHeaders({ method: 'POST', url: mcpUrl, accessToken: tokens.access_token });
 * const response = await fetch(mcpUrl, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body });
 * dpop.rememberNonce(mcpUrl, response);
 * ```
 */
export class DpopProver {
  /** The JWS algorithm of the proofs. */
  readonly algorithm: string;
  readonly #privateKey: CryptoKey;
  readonly #publicJwk: Promise<JWK>;
  readonly #nonces = new Map<string, string>();

  /** Wraps an existing key pair (e.g. one kept in IndexedDB across page loads). */
  constructor(keyPair: CryptoKeyPair, algorithm?: string) {
    const resolved = algorithm ?? jwsAlgorithmOf(keyPair.privateKey);
    if (resolved === undefined) {
      throw new OAuthError(
        'ERR_CLIENT_ASSERTION',
        `Cannot tell the JWS algorithm of a ${keyPair.privateKey.algorithm.name} key for DPoP: pass the algorithm.`,
        { source: 'client', data: { keyAlgorithm: keyPair.privateKey.algorithm.name } },
      );
    }
    this.algorithm = resolved;
    this.#privateKey = keyPair.privateKey;
    // Only the public members are exported: the header travels in the clear.
    this.#publicJwk = exportJWK(keyPair.publicKey).then(({ kty, crv, x, y, n, e }) =>
      Object.fromEntries(Object.entries({ kty, crv, x, y, n, e }).filter(([, value]) => value !== undefined)),
    );
  }

  /** A prover with a fresh key pair whose private key cannot be exported (default ES256). */
  static async generate(algorithm = 'ES256'): Promise<DpopProver> {
    const { privateKey, publicKey } = await generateKeyPair(algorithm, { extractable: false });
    return new DpopProver({ privateKey, publicKey }, algorithm);
  }

  /**
   * A proof JWT for one request: `typ: dpop+jwt`, the public `jwk`, and `jti`, `htm`, `htu`, `iat`, plus `ath` and
   * `nonce` when they apply.
   */
  async proof(options: DpopProofOptions): Promise<string> {
    const url = new URL(options.url);
    const nonce = options.nonce ?? this.#nonces.get(url.origin);
    const claims: Record<string, string> = { htm: options.method.toUpperCase(), htu: targetUri(url) };
    if (options.accessToken !== undefined) claims.ath = await accessTokenHash(options.accessToken);
    if (nonce !== undefined) claims.nonce = nonce;
    return new SignJWT(claims)
      .setProtectedHeader({ typ: 'dpop+jwt', alg: this.algorithm, jwk: await this.#publicJwk })
      .setIssuedAt()
      .setJti(base64url.encode(crypto.getRandomValues(new Uint8Array(16))))
      .sign(this.#privateKey);
  }

  /** The headers of a request to a protected resource with a DPoP-bound token: `Authorization: DPoP …` and `DPoP`. */
  async resourceHeaders(options: DpopProofOptions & { accessToken: string }): Promise<Record<string, string>> {
    return { Authorization: `DPoP ${options.accessToken}`, DPoP: await this.proof(options) };
  }

  /** Keeps the `DPoP-Nonce` a response carries for the next proof to its origin. Returns whether there was one. */
  rememberNonce(url: string | URL, response: Response): boolean {
    const nonce = response.headers.get('dpop-nonce');
    if (nonce === null) return false;
    const origin = new URL(url).origin;
    this.#nonces.delete(origin);
    if (this.#nonces.size >= MAX_REMEMBERED_NONCES) {
      const oldest = this.#nonces.keys().next().value;
      if (oldest !== undefined) this.#nonces.delete(oldest);
    }
    this.#nonces.set(origin, nonce);
    return true;
  }

  /** The RFC 7638 thumbprint of the public key: the `dpop_jkt` authorization request parameter (RFC 9449 §10). */
  async thumbprint(): Promise<string> {
    return calculateJwkThumbprint(await this.#publicJwk);
  }
}

/**
 * `ath` (RFC 9449 §4.2): the base64url SHA-256 of the access token.
 *
 * @example
 * ```ts
 * await accessTokenHash('Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU'); // 'fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo'
 * ```
 */
export async function accessTokenHash(accessToken: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(accessToken))));
}

/**
 * True when a resource server's 401 asks for a DPoP nonce (`WWW-Authenticate: DPoP error="use_dpop_nonce"` with a
 * `DPoP-Nonce` header): remember the nonce and retry once. The challenge is read per scheme, so a `Bearer` challenge
 * in the same header does not count.
 *
 * @example
 * ```ts
 * if (isDpopNonceChallenge(response) && dpop.rememberNonce(url, response)) response = await send();
 * ```
 */
export function isDpopNonceChallenge(response: Response): boolean {
  if (response.status !== 401 || !response.headers.has('dpop-nonce')) return false;
  const header = response.headers.get('www-authenticate');
  return header !== null && challengeParams(header, 'dpop').get('error') === 'use_dpop_nonce';
}

function targetUri(url: URL): string {
  // RFC 9449 §4.2: without query and fragment; credentials must not be signed into a claim sent in the clear.
  return `${url.protocol}//${url.host}${url.pathname}`;
}

// A token, then optionally `=value` (token or quoted string). A token with no `=` starts a new challenge (its scheme).
const PARAM = /\s*,?\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?:\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s]*))?/y;

/** The auth-params of the challenge of `scheme` (lower case) in a `WWW-Authenticate` value (RFC 9110 §11.6.1). */
function challengeParams(header: string, scheme: string): Map<string, string> {
  const params = new Map<string, string>();
  let current: string | undefined;
  PARAM.lastIndex = 0;
  for (let match = PARAM.exec(header); match !== null && match[0] !== ''; match = PARAM.exec(header)) {
    const [, name = '', value] = match;
    if (value === undefined) {
      current = name.toLowerCase();
      continue;
    }
    if (current !== scheme) continue;
    params.set(name.toLowerCase(), value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value);
  }
  return params;
}
