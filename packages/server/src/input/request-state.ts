import { invalidParamsError } from '@mcpkit/protocol';
import { base64UrlToBytes, base64UrlToText, bytesToBase64Url, textToBase64Url } from './base64url';

/**
 * Remembers which `requestState` tokens were used, so each is accepted once (the spec makes single use the server's
 * job). Implement it over a shared store (Redis, a database) when several server instances answer one client.
 *
 * @example
 * const store: NonceStore = { consume: async (nonce, expiresAt) => (await redis.set(nonce, 1, { NX: true, PXAT: expiresAt })) === 'OK' };
 */
export interface NonceStore {
  /** Records `nonce` (valid until `expiresAt`, ms since epoch); true the first time, false on every later call. */
  consume(nonce: string, expiresAt: number): boolean | Promise<boolean>;
}

/**
 * The default `NonceStore`: in memory, bounded. Expired entries are dropped first; past `maxEntries` the oldest go,
 * which would let a token that old be replayed, so keep `maxEntries` above the number of MRTR rounds a server sees
 * within one `requestStateTtlMs`.
 */
export class InMemoryNonceStore implements NonceStore {
  readonly #used = new Map<string, number>();
  readonly #maxEntries: number;

  constructor(options: { maxEntries?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? 100_000;
  }

  get size(): number {
    return this.#used.size;
  }

  consume(nonce: string, expiresAt: number): boolean {
    if (this.#used.has(nonce)) return false;
    if (this.#used.size >= this.#maxEntries) {
      const now = Date.now();
      for (const [key, expiry] of this.#used) if (expiry <= now) this.#used.delete(key);
      if (this.#used.size >= this.#maxEntries) this.#used.delete(this.#used.keys().next().value as string);
    }
    this.#used.set(nonce, expiresAt);
    return true;
  }
}

/** What a requestState token carries (signed, not encrypted: the client can read it, not change it). */
export interface RequestStatePayload {
  /** Format version. */
  v: 1;
  /** The method of the request it belongs to. */
  m: string;
  /** SHA-256 (base64url) of the request's params without `_meta`, `inputResponses` and `requestState`. */
  d: string;
  /** Expiry, ms since epoch. */
  e: number;
  /** The principal it was issued to, when the request was authenticated. */
  p?: string;
  /** Nonce, for single use. */
  n: string;
  /** Every answer collected in earlier rounds, by input key. */
  r: Record<string, unknown>;
  /** The input keys asked in the round that issued it (the only `inputResponses` keys accepted with it). */
  a: string[];
}

const encoder = new TextEncoder();

function subtle(): SubtleCrypto {
  const crypto = globalThis.crypto;
  if (crypto?.subtle === undefined) {
    throw new Error('Multi round-trip requests need WebCrypto (globalThis.crypto.subtle), which this runtime lacks');
  }
  return crypto.subtle;
}

/** JSON with object keys sorted, so equal values always hash the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  let out = '';
  for (const key of keys) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `{${out}}`;
}

const UNDIGESTED = new Set(['_meta', 'inputResponses', 'requestState']);

/** SHA-256 (base64url) of the params that identify a request, without the envelope and the MRTR fields. */
export async function paramsDigest(params: unknown): Promise<string> {
  let subject: unknown = params ?? {};
  if (subject !== null && typeof subject === 'object' && !Array.isArray(subject)) {
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(subject)) if (!UNDIGESTED.has(key)) kept[key] = value;
    subject = kept;
  }
  const digest = await subtle().digest('SHA-256', encoder.encode(canonicalJson(subject)));
  return bytesToBase64Url(new Uint8Array(digest));
}

/** Why a requestState was refused (also `error.data.reason` of the -32602). */
export type RequestStateRejection =
  | 'malformed'
  | 'signature'
  | 'expired'
  | 'method'
  | 'params'
  | 'principal'
  | 'replayed';

function rejection(reason: RequestStateRejection, detail: string): Error {
  return invalidParamsError(`Invalid requestState: ${detail}`, { reason });
}

/** Signs and verifies requestState tokens with HMAC-SHA-256 (WebCrypto). One per server. */
export class RequestStateCodec {
  readonly #secret: string | Uint8Array | CryptoKey | undefined;
  #key: Promise<CryptoKey> | undefined;
  readonly ttlMs: number;
  readonly nonces: NonceStore;

  constructor(options: { secret?: string | Uint8Array | CryptoKey; ttlMs?: number; nonceStore?: NonceStore }) {
    this.#secret = options.secret;
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.nonces = options.nonceStore ?? new InMemoryNonceStore();
  }

  #getKey(): Promise<CryptoKey> {
    if (this.#key === undefined) {
      const secret = this.#secret;
      if (secret !== undefined && typeof secret === 'object' && !(secret instanceof Uint8Array)) {
        this.#key = Promise.resolve(secret);
      } else {
        // Without a configured secret: a random per-process key. Tokens then survive neither a restart nor a hop to
        // another instance; multi-instance deployments must configure one shared secret.
        const raw =
          secret === undefined
            ? globalThis.crypto.getRandomValues(new Uint8Array(32))
            : typeof secret === 'string'
              ? encoder.encode(secret)
              : secret;
        this.#key = subtle().importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
          'sign',
          'verify',
        ]);
      }
    }
    return this.#key;
  }

  /** Mints a token for `payload` (fills in nonce and expiry). */
  async sign(payload: Omit<RequestStatePayload, 'v' | 'n' | 'e'>): Promise<string> {
    const nonce = bytesToBase64Url(globalThis.crypto.getRandomValues(new Uint8Array(16)));
    const full: RequestStatePayload = { v: 1, ...payload, n: nonce, e: Date.now() + this.ttlMs };
    const body = textToBase64Url(JSON.stringify(full));
    const mac = await subtle().sign('HMAC', await this.#getKey(), encoder.encode(body));
    return `${body}.${bytesToBase64Url(new Uint8Array(mac))}`;
  }

  /**
   * Verifies a token for this request and consumes it (single use). Throws -32602 `Invalid requestState` with
   * `data.reason` on any failure.
   */
  async verify(
    token: unknown,
    expected: { method: string; params: unknown; principal: string | undefined },
  ): Promise<RequestStatePayload> {
    if (typeof token !== 'string') throw rejection('malformed', 'it must be the string the server issued');
    const dot = token.indexOf('.');
    const mac = dot === -1 ? undefined : base64UrlToBytes(token.slice(dot + 1));
    if (dot === -1 || mac === undefined) throw rejection('malformed', 'it is not a token this server issued');
    const body = token.slice(0, dot);
    const valid = await subtle().verify('HMAC', await this.#getKey(), mac as BufferSource, encoder.encode(body));
    if (!valid) throw rejection('signature', 'its signature does not match (tampered, or issued by another server)');
    let payload: RequestStatePayload;
    try {
      payload = JSON.parse(base64UrlToText(body) ?? '') as RequestStatePayload;
    } catch {
      throw rejection('malformed', 'its payload is not readable');
    }
    if (payload.v !== 1) throw rejection('malformed', `unknown format version ${String(payload.v)}`);
    if (!(payload.e > Date.now())) throw rejection('expired', 'it has expired; send the request again without it');
    if (payload.m !== expected.method) {
      throw rejection('method', `it was issued for '${payload.m}', not '${expected.method}'`);
    }
    if (payload.p !== expected.principal) throw rejection('principal', 'it was issued to a different principal');
    if (payload.d !== (await paramsDigest(expected.params))) {
      throw rejection('params', 'the request params differ from those of the request it was issued for');
    }
    if (!(await this.nonces.consume(payload.n, payload.e))) {
      throw rejection('replayed', 'it has already been used; each requestState is accepted once');
    }
    return payload;
  }
}
