import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import type { TokenVerifyContext } from './token-verifier';

const encoder = new TextEncoder();

/** A cache key for a token: its SHA-256, base64url (fixed size, and not itself a usable credential). */
export async function tokenDigest(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(token)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

interface Entry {
  /** The identity without its token (given back on a hit). */
  info: AuthInfo;
  /** Milliseconds since the epoch after which the entry is dead. */
  until: number;
}

/**
 * Verified identities by key, bounded in count (oldest out first) and in time: an entry lives at most `maxTtlMs`,
 * and never past the token's own `expiresAt`.
 */
export class TokenCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #maxTtlMs: number;

  constructor(maxEntries: number, maxTtlMs: number) {
    this.#maxEntries = Math.max(1, maxEntries);
    this.#maxTtlMs = maxTtlMs;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The identity cached under `key`, given back its `token`. */
  get(key: string, token: string): AuthInfo | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return { ...entry.info, token };
  }

  set(key: string, info: AuthInfo): void {
    const now = Date.now();
    let until = now + this.#maxTtlMs;
    if (info.expiresAt !== undefined) until = Math.min(until, info.expiresAt * 1000);
    if (until <= now) return;
    this.#entries.delete(key);
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    this.#entries.set(key, { info: { ...info, token: '' }, until });
  }
}

/** How a verifier caches what it accepted. `false`: it checks every time. */
export type TokenCacheOptions = { maxEntries?: number; maxTtlSeconds?: number } | false;

type Verify = (token: string, context: TokenVerifyContext) => Promise<AuthInfo>;

/**
 * Wraps a verification so an accepted token is not checked again for a while (keyed with the resource: an identity
 * accepted for one resource says nothing about another). Concurrent checks of one token share one verification.
 * Refusals are never cached: a token that is not valid yet may become valid.
 *
 * `key: 'digest'` keys by the token's SHA-256 (the cache then holds no credential at all; costs a WebCrypto digest
 * per request, which is nothing next to an introspection round trip). `key: 'token'` keys by the token itself: the
 * cheapest exact match, for verifiers whose own check is local CPU work (a JWT signature). Never a fast
 * non-cryptographic hash: a collision would let a forged token borrow a cached identity.
 */
export function cachedVerification(
  verify: Verify,
  options: TokenCacheOptions,
  defaults: { maxTtlSeconds: number; key: 'digest' | 'token' },
): Verify {
  if (options === false) return verify;
  const cache = new TokenCache(options.maxEntries ?? 1000, (options.maxTtlSeconds ?? defaults.maxTtlSeconds) * 1000);
  const inFlight = new Map<string, Promise<AuthInfo>>();
  const digest = defaults.key === 'digest';
  return async (token, context) => {
    const key = `${digest ? await tokenDigest(token) : token} ${context.resource}`;
    const cached = cache.get(key, token);
    if (cached !== undefined) return cached;
    let pending = inFlight.get(key);
    if (pending === undefined) {
      pending = verify(token, context).then(
        (info) => {
          cache.set(key, info);
          inFlight.delete(key);
          return info;
        },
        (error: unknown) => {
          inFlight.delete(key);
          throw error;
        },
      );
      inFlight.set(key, pending);
    }
    // A caller sharing another's verification still gets its own object.
    return { ...(await pending), token };
  };
}
