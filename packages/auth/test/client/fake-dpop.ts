// The server half of DPoP (RFC 9449 §4.3) for the fake worlds: verifies a proof the way an authorization or resource
// server must, with jose and nothing from the client under test, so a client bug cannot hide behind shared code.

import { base64url, calculateJwkThumbprint, EmbeddedJWK, type JWTPayload, jwtVerify } from 'jose';

/** What the proof must be bound to. */
export interface ExpectedProof {
  method: string;
  /** The request URL; the proof's `htu` must equal it without query and fragment. */
  url: string;
  /** The access token presented with the proof (resource requests): `ath` must be its hash. */
  accessToken?: string;
}

export type ProofVerdict =
  | { ok: true; jkt: string; payload: JWTPayload }
  | { ok: false; error: 'invalid_dpop_proof' | 'use_dpop_nonce'; reason: string };

const MAX_AGE_SECONDS = 60;

/** One server's proof checks: its current nonce (when it demands one) and the `jti`s it has seen. */
export class DpopProofChecker {
  /** The nonce proofs must carry; undefined: the server demands none. */
  nonce: string | undefined;
  /** Every proof payload that passed the signature check, in order. */
  readonly payloads: JWTPayload[] = [];
  readonly #seenJtis = new Set<string>();

  constructor(nonce?: string) {
    this.nonce = nonce;
  }

  async check(proof: string | null, expected: ExpectedProof): Promise<ProofVerdict> {
    if (proof === null || proof === '') return { ok: false, error: 'invalid_dpop_proof', reason: 'no DPoP header' };
    let verified: Awaited<ReturnType<typeof jwtVerify>>;
    try {
      verified = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ['ES256', 'RS256', 'EdDSA'] });
    } catch (error) {
      return { ok: false, error: 'invalid_dpop_proof', reason: `signature: ${(error as Error).message}` };
    }
    const { payload, protectedHeader } = verified;
    this.payloads.push(payload);
    const jwk = protectedHeader.jwk ?? {};
    if ('d' in jwk) return { ok: false, error: 'invalid_dpop_proof', reason: 'private key in the header' };
    const url = new URL(expected.url);
    if (payload.htm !== expected.method) return { ok: false, error: 'invalid_dpop_proof', reason: 'htm' };
    if (payload.htu !== `${url.origin}${url.pathname}`) {
      return { ok: false, error: 'invalid_dpop_proof', reason: `htu ${String(payload.htu)}` };
    }
    if (typeof payload.iat !== 'number' || Math.abs(payload.iat - Date.now() / 1000) > MAX_AGE_SECONDS) {
      return { ok: false, error: 'invalid_dpop_proof', reason: 'iat' };
    }
    if (typeof payload.jti !== 'string' || this.#seenJtis.has(payload.jti)) {
      return { ok: false, error: 'invalid_dpop_proof', reason: 'jti missing or replayed' };
    }
    this.#seenJtis.add(payload.jti);
    if (expected.accessToken !== undefined) {
      const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(expected.accessToken));
      if (payload.ath !== base64url.encode(new Uint8Array(digest))) {
        return { ok: false, error: 'invalid_dpop_proof', reason: 'ath' };
      }
    } else if (payload.ath !== undefined) {
      return { ok: false, error: 'invalid_dpop_proof', reason: 'ath without a token' };
    }
    if (this.nonce !== undefined && payload.nonce !== this.nonce) {
      return { ok: false, error: 'use_dpop_nonce', reason: `nonce ${String(payload.nonce)}` };
    }
    return { ok: true, jkt: await calculateJwkThumbprint(jwk), payload };
  }
}
