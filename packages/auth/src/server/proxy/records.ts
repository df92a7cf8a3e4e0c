// What the proxy keeps in its store, per kind, and the typed access to it. Values are plain JSON objects so any
// OAuthProxyStore can hold them; the proxy wrote every one, so reading them back needs no validation.

import { sha256Base64Url } from '../../shared/random';
import type { UpstreamTokens } from './options';
import type { OAuthProxyStore } from './store';

/** An MCP client the proxy knows: registered through /register, or read from its Client ID Metadata Document. */
export interface ProxyClient {
  client_id: string;
  /** SHA-256 of the secret for confidential clients; the secret itself is shown once, at registration. */
  client_secret_hash?: string;
  token_endpoint_auth_method: 'none' | 'client_secret_basic' | 'client_secret_post';
  redirect_uris: string[];
  grant_types: string[];
  client_name?: string;
  client_uri?: string;
  /** Where the client came from: `dcr` or `cimd` (a metadata document URL). */
  source: 'dcr' | 'cimd';
}

/** One authorization in progress: the MCP client's request, kept while the user consents and logs in upstream. */
export interface AuthorizationTransaction {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  state?: string;
  scopes: string[];
  resource: string;
  /** The proxy's own PKCE verifier for the upstream leg. */
  upstream_verifier: string;
  /** Binds the consent form to the browser that opened it (double-submit cookie). */
  csrf: string;
  /** True once the user approved on the consent page (or consent is off). */
  approved: boolean;
}

/** What an access token is issued from: the grant the user gave one client, for one resource. */
export interface ProxyGrant {
  client_id: string;
  scopes: string[];
  resource: string;
  upstream: UpstreamTokens;
  /** When the upstream access token expires (ms since the epoch), if it said. */
  upstream_expires_at?: number;
  subject?: string;
  claims?: Record<string, unknown>;
  /**
   * Shared by the code and every refresh token descended from it: when a used one comes back (stolen, replayed), the
   * whole family is revoked (OAuth 2.1 §4.1.3 for codes, §4.3.1 for rotated refresh tokens).
   */
  family: string;
}

/** An authorization code the proxy issued to an MCP client. */
export interface IssuedCode extends ProxyGrant {
  redirect_uri: string;
  code_challenge: string;
}

type Kind = 'client' | 'cimd' | 'tx' | 'code' | 'refresh' | 'used' | 'family';

/** Typed access to the store. Codes and refresh tokens are keyed by their SHA-256: a store dump yields no usable one. */
export class ProxyState {
  readonly #store: OAuthProxyStore;

  constructor(store: OAuthProxyStore) {
    this.#store = store;
  }

  async getClient(clientId: string): Promise<ProxyClient | undefined> {
    return (await this.#store.get(key('client', clientId))) as ProxyClient | undefined;
  }
  async saveClient(client: ProxyClient, ttlSeconds?: number): Promise<void> {
    await this.#store.set(key('client', client.client_id), { ...client }, ttlSeconds);
  }
  async getMetadataDocumentClient(url: string): Promise<ProxyClient | undefined> {
    return (await this.#store.get(key('cimd', url))) as ProxyClient | undefined;
  }
  async saveMetadataDocumentClient(client: ProxyClient, ttlSeconds: number): Promise<void> {
    await this.#store.set(key('cimd', client.client_id), { ...client }, ttlSeconds);
  }
  async getTransaction(id: string): Promise<AuthorizationTransaction | undefined> {
    return (await this.#store.get(key('tx', id))) as AuthorizationTransaction | undefined;
  }
  async saveTransaction(id: string, tx: AuthorizationTransaction, ttlSeconds: number): Promise<void> {
    await this.#store.set(key('tx', id), { ...tx }, ttlSeconds);
  }
  async takeTransaction(id: string): Promise<AuthorizationTransaction | undefined> {
    return (await this.#store.take(key('tx', id))) as AuthorizationTransaction | undefined;
  }
  async saveCode(code: string, issued: IssuedCode, ttlSeconds: number): Promise<void> {
    await this.#store.set(key('code', await sha256Base64Url(code)), { ...issued }, ttlSeconds);
  }
  /** Takes a code (single use) and remembers it was used, for `usedTtlSeconds`, to spot a replay. */
  async takeCode(code: string, usedTtlSeconds: number): Promise<IssuedCode | undefined> {
    return (await this.#takeOnce('code', code, usedTtlSeconds)) as IssuedCode | undefined;
  }
  /** Stores a refresh token, and makes it the one live token of its family. */
  async saveRefresh(token: string, grant: ProxyGrant, ttlSeconds: number): Promise<void> {
    const hash = await sha256Base64Url(token);
    await this.#store.set(key('refresh', hash), { ...grant }, ttlSeconds);
    await this.#store.set(key('family', grant.family), { current: hash }, ttlSeconds);
  }
  /** Takes a refresh token (rotation: single use) and remembers it was used, to spot a replay. */
  async takeRefresh(token: string, usedTtlSeconds: number): Promise<ProxyGrant | undefined> {
    return (await this.#takeOnce('refresh', token, usedTtlSeconds)) as ProxyGrant | undefined;
  }
  /**
   * When `secret` (a code or refresh token) was already used: revokes the live refresh token of its family and returns
   * true. Either the client or an attacker holds a copy; the user signs in again rather than leave one to the attacker.
   */
  async revokeIfReplayed(secret: string): Promise<boolean> {
    const used = await this.#store.get(key('used', await sha256Base64Url(secret)));
    if (typeof used?.family !== 'string') return false;
    const family = await this.#store.take(key('family', used.family));
    if (typeof family?.current === 'string') await this.#store.delete(key('refresh', family.current));
    return true;
  }

  async #takeOnce(kind: 'code' | 'refresh', secret: string, usedTtlSeconds: number): Promise<ProxyGrant | undefined> {
    const hash = await sha256Base64Url(secret);
    const value = (await this.#store.take(key(kind, hash))) as ProxyGrant | undefined;
    if (value !== undefined) await this.#store.set(key('used', hash), { family: value.family }, usedTtlSeconds);
    return value;
  }
}

function key(kind: Kind, id: string): string {
  return `${kind}:${id}`;
}
