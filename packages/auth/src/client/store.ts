import type { AuthorizationServerMetadata, ClientCredentials } from './types';

/** The tokens held for one MCP server. Plain JSON, so a store may persist it as it is. */
export interface StoredTokens {
  accessToken: string;
  tokenType: string;
  refreshToken?: string;
  /** When the access token expires (ms since the epoch); absent: unknown, used until the server refuses it. */
  expiresAt?: number;
  /** The scope granted (as the token response says, else as requested). */
  scope?: string;
  /** The RFC 8707 resource the token was issued for. */
  resource: string;
  /** The authorization server that issued it, and its metadata (for refreshing without discovery). */
  issuer: string;
  authorizationServer: AuthorizationServerMetadata;
}

/** An authorization the user has been sent to and that awaits its callback, found again by its `state`. */
export interface PendingAuthorization {
  state: string;
  codeVerifier: string;
  redirectUri: string;
  /** The MCP server URL the tokens are for (the store key of {@link StoredTokens}). */
  serverUrl: string;
  resource: string;
  scope?: string;
  /** The validated issuer, checked against the response's `iss` (RFC 9207). */
  issuer: string;
  authorizationServer: AuthorizationServerMetadata;
  clientId: string;
  /** ms since the epoch; pending authorizations older than ten minutes are refused. */
  createdAt: number;
}

type MaybePromise<T> = T | Promise<T>;

/**
 * Where the OAuth client keeps its state: tokens per MCP server, client credentials per authorization server
 * (credentials are never used at another issuer), and pending authorizations per `state`. Methods may be sync or
 * async; `undefined` as a value deletes. A CLI may persist to a file, a web app to `sessionStorage` (pending) and a
 * server-side session (tokens).
 */
export interface OAuthStore {
  getTokens(serverUrl: string): MaybePromise<StoredTokens | undefined>;
  setTokens(serverUrl: string, tokens: StoredTokens | undefined): MaybePromise<void>;
  getClient(issuer: string): MaybePromise<ClientCredentials | undefined>;
  setClient(issuer: string, credentials: ClientCredentials | undefined): MaybePromise<void>;
  getPending(state: string): MaybePromise<PendingAuthorization | undefined>;
  setPending(state: string, pending: PendingAuthorization | undefined): MaybePromise<void>;
}

/**
 * The default {@link OAuthStore}: maps in memory, gone when the process ends.
 *
 * @example
 * ```ts
 * const store = new InMemoryOAuthStore();
 * const oauth = new OAuthClient({ provider: { store, redirectUrl, redirectToAuthorization } });
 * ```
 */
export class InMemoryOAuthStore implements OAuthStore {
  readonly #tokens = new Map<string, StoredTokens>();
  readonly #clients = new Map<string, ClientCredentials>();
  readonly #pending = new Map<string, PendingAuthorization>();

  getTokens(serverUrl: string): StoredTokens | undefined {
    return this.#tokens.get(serverUrl);
  }
  setTokens(serverUrl: string, tokens: StoredTokens | undefined): void {
    if (tokens === undefined) this.#tokens.delete(serverUrl);
    else this.#tokens.set(serverUrl, tokens);
  }
  getClient(issuer: string): ClientCredentials | undefined {
    return this.#clients.get(issuer);
  }
  setClient(issuer: string, credentials: ClientCredentials | undefined): void {
    if (credentials === undefined) this.#clients.delete(issuer);
    else this.#clients.set(issuer, credentials);
  }
  getPending(state: string): PendingAuthorization | undefined {
    return this.#pending.get(state);
  }
  setPending(state: string, pending: PendingAuthorization | undefined): void {
    if (pending === undefined) this.#pending.delete(state);
    else this.#pending.set(state, pending);
  }
}
