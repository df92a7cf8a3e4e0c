import { createPkcePair } from '../shared/pkce';
import { randomToken } from '../shared/random';
import { AuthorizationError, UnauthorizedError } from './authorization-error';
import { readAuthorizationCode } from './authorization-response';
import { type DiscoveryResult, discover } from './discovery';
import { DpopProver, isDpopNonceChallenge } from './dpop';
import { OAuthError } from './oauth-error';
import {
  checkAuthorizationEndpoint,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  guardFetch,
  isLoopbackUrl,
  type OAuthNetworkOptions,
} from './outbound';
import { bearerInit, discard, dpopInit, isDpopBound, type Outgoing, untilAborted } from './outgoing';
import type { OAuthClientProvider } from './provider';
import { resolveClientCredentials } from './registration';
import { canonicalResource, resourceKey } from './resource-url';
import { selectScope, splitScope, unionScopes } from './scope';
import { retryStaleConnections } from './stale-connection';
import { InMemoryOAuthStore, type OAuthStore, type PendingAuthorization, type StoredTokens } from './store';
import { requestToken } from './token-endpoint';
import type { AuthorizationServerMetadata, ClientCredentials, TokenResponse } from './types';
import { type BearerChallenge, parseChallengeOf } from './www-authenticate';

/** Options of {@link OAuthClient}. */
export interface OAuthClientOptions {
  /** Storage, the user's way to the authorization server, the client's identity. */
  provider: OAuthClientProvider;
  /**
   * The MCP server the tokens are for. Default: the URL of the first request made through `fetch`. Requests to any
   * other origin pass through untouched: a token is never sent elsewhere.
   */
  serverUrl?: string | URL;
  /** The `fetch` used for the MCP server and the authorization server (default: the global one). */
  fetch?: typeof fetch;
  /** Ask for refresh tokens (`offline_access` when advertised, `refresh_token` in registration). Default true. */
  wantRefreshTokens?: boolean;
  /** Step-up authorizations allowed for one scope set before `ERR_STEP_UP_LIMIT`. Default 2. */
  maxStepUps?: number;
  /** Refresh this long before the access token expires. Default 60 s. */
  refreshSkewMs?: number;
  /** Picks the authorization server when the resource lists several (default: the first). */
  selectAuthorizationServer?: (issuers: readonly string[]) => string;
  /**
   * The rules for the URLs servers supply (metadata, authorization server endpoints): private addresses refused,
   * responses capped at 1 MiB and 30 s by default. See {@link OAuthNetworkOptions}.
   */
  network?: OAuthNetworkOptions;
  /**
   * Called as the user is sent to sign in (`redirectToAuthorization`), and what it returns once they are back: pass
   * `() => client.holdTimeouts()` so the time the user takes counts against no request timeout (`connect()`'s
   * `server/discover` probe included, which would otherwise settle on the legacy era while the user signs in).
   *
   * @example
   * const client = new Client(info);
   * const oauth = new OAuthClient({ provider, onWaitingForUser: () => client.holdTimeouts() });
   */
  onWaitingForUser?: () => () => void;
}

const PENDING_TTL_MS = 10 * 60_000;
const DEFAULT_REFRESH_SKEW_MS = 60_000;
const DEFAULT_MAX_STEP_UPS = 2;

/** Why a token is needed: the server's challenge, and for step-up the scope to ask for. */
interface TokenNeed {
  challenge?: BearerChallenge;
  /** Step-up: the full scope to request (the union of what is held and what the server asked for). */
  scope?: string;
}

/**
 * The OAuth 2.1 client of an MCP server: discovery (RFC 9728, RFC 8414 / OpenID, the 2025-03-26 fallbacks),
 * registration (pre-registered, Client ID Metadata Documents, Dynamic Client Registration), authorization code with
 * PKCE S256, RFC 8707 `resource`, RFC 9207 `iss`, refresh, step-up, and DPoP-bound tokens (RFC 9449) when the
 * provider asks for them. Its `fetch` is what the HTTP transports take.
 *
 * @example
 * ```ts
 * const oauth = new OAuthClient({
 *   provider: {
 *     redirectUrl: 'http://127.0.0.1:8765/callback',
 *     clientMetadata: { client_name: 'My CLI' },
 *     redirectToAuthorization: async ({ authorizationUrl }) => openAndAwaitCallback(authorizationUrl),
 *   },
 * });
 * await client.connect(new StreamableHttpClientTransport(url, { fetch: oauth.fetch }));
 * ```
 */
export class OAuthClient {
  /** A `fetch` that authorizes requests to the MCP server (see {@link createOAuthFetch}). */
  readonly fetch: typeof fetch;
  readonly #provider: OAuthClientProvider;
  readonly #onWaitingForUser: (() => () => void) | undefined;
  readonly #store: OAuthStore;
  readonly #baseFetch: typeof fetch;
  /** The authorization server's requests: `#baseFetch`, sent once more when a reused connection was reset. */
  readonly #authFetch: typeof fetch;
  readonly #wantRefreshTokens: boolean;
  readonly #maxStepUps: number;
  readonly #refreshSkewMs: number;
  readonly #selectAuthorizationServer: ((issuers: readonly string[]) => string) | undefined;
  #server: URL | undefined;
  /** The server of the authorization `finish` completes, for the outbound rules when `#server` is not bound yet. */
  #callbackServer: URL | undefined;
  /** The DPoP prover, once there is one: set at construction (a given prover) or when the generated one is ready. */
  #dpop: DpopProver | undefined;
  #dpopReady: Promise<DpopProver> | undefined;
  /** One authorization (or refresh) at a time per server: concurrent 401s share it. */
  readonly #inflight = new Map<string, Promise<StoredTokens>>();
  /** Step-up authorizations done per server and scope set, until one of them works. */
  readonly #stepUps = new Map<string, number>();
  /** A web-app authorization waiting for its callback: further 401s do not send the user again. */
  readonly #awaitingCallback = new Map<string, { error: UnauthorizedError; since: number }>();

  constructor(options: OAuthClientOptions) {
    this.#provider = options.provider;
    this.#onWaitingForUser = options.onWaitingForUser;
    this.#store = options.provider.store ?? new InMemoryOAuthStore();
    this.#baseFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const network = options.network ?? {};
    const policy = {
      allowPrivateNetwork: network.allowPrivateNetwork ?? false,
      maxResponseBytes: network.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      timeoutMs: network.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
    // Loopback is a development setup only when the MCP server itself is there; decided per request, since the
    // server may be bound by the first request (or, in a web app's callback page, by the pending authorization).
    const server = () => this.#server ?? this.#callbackServer;
    this.#authFetch = guardFetch(retryStaleConnections(this.#baseFetch), () => {
      const bound = server();
      return { ...policy, serverOnLoopback: bound !== undefined && isLoopbackUrl(bound) };
    });
    this.#wantRefreshTokens = options.wantRefreshTokens ?? true;
    this.#maxStepUps = options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
    this.#refreshSkewMs = options.refreshSkewMs ?? DEFAULT_REFRESH_SKEW_MS;
    this.#selectAuthorizationServer = options.selectAuthorizationServer;
    if (options.serverUrl !== undefined) this.#server = canonicalResource(options.serverUrl);
    const { dpop } = options.provider;
    if (dpop instanceof DpopProver) {
      this.#dpop = dpop;
      this.#dpopReady = Promise.resolve(dpop);
    }
    this.fetch = (input, init) => this.#fetch(input, init);
  }

  /** The MCP server this client holds tokens for (undefined until set or until the first request). */
  get serverUrl(): URL | undefined {
    return this.#server;
  }

  /** The tokens held for the server, if any (as stored; they may have expired). */
  async tokens(): Promise<StoredTokens | undefined> {
    return this.#server === undefined ? undefined : this.#store.getTokens(resourceKey(this.#server));
  }

  /** Forgets the server's tokens (the client credentials stay: they belong to the authorization server). */
  async signOut(): Promise<void> {
    if (this.#server !== undefined) await this.#store.setTokens(resourceKey(this.#server), undefined);
  }

  /**
   * Completes an authorization after the browser came back to the redirect URI (the web-app path): checks `state`
   * and `iss`, redeems the code with the PKCE verifier, stores the tokens. Then reconnect.
   *
   * @example
   * ```ts
   * // on the page at the redirect URI
   * await oauth.finish(window.location.href);
   * ```
   */
  async finish(callbackUrl: string | URL, signal?: AbortSignal): Promise<StoredTokens> {
    const params = new URL(callbackUrl).searchParams;
    const state = params.get('state');
    const pending = state === null ? undefined : await this.#store.getPending(state);
    if (state === null || pending === undefined) {
      throw new AuthorizationError(
        'ERR_STATE_MISMATCH',
        'The authorization response matches no pending authorization (unknown or missing state): start again',
        { state },
      );
    }
    await this.#store.setPending(state, undefined);
    if (Date.now() - pending.createdAt > PENDING_TTL_MS) {
      throw new AuthorizationError('ERR_STATE_MISMATCH', 'The pending authorization expired: start again', {
        state,
        createdAt: pending.createdAt,
      });
    }
    this.#awaitingCallback.delete(pending.serverUrl);
    this.#callbackServer = new URL(pending.serverUrl);
    const code = readAuthorizationCode(params, pending.authorizationServer);
    const credentials = await this.#credentialsFor(pending.authorizationServer, signal);
    const response = await requestToken({
      authorizationServer: pending.authorizationServer,
      credentials,
      grant: {
        grant_type: 'authorization_code',
        code,
        code_verifier: pending.codeVerifier,
        redirect_uri: pending.redirectUri,
        resource: pending.resource,
      },
      fetch: this.#authFetch,
      signal,
      dpop: await this.#prover(),
    });
    return this.#save(pending.serverUrl, response, pending);
  }

  /**
   * Obtains tokens for the server now (e.g. a CLI `login` command) instead of on the first 401.
   *
   * @example
   * ```ts
   * await oauth.authorize('https://mcp.example.com/mcp');
   * ```
   */
  async authorize(serverUrl?: string | URL): Promise<StoredTokens> {
    const server = this.#bind(serverUrl === undefined ? undefined : new URL(serverUrl));
    return this.#single(resourceKey(server), () => this.#obtain(server, {}));
  }

  // ---- fetch ----

  async #fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const server = this.#bind(url);
    if (url.origin !== server.origin) return this.#baseFetch(input, init);
    const key = resourceKey(server);
    // A Request body can be read once: keep a copy for the retries.
    const spare = input instanceof Request ? input.clone() : undefined;
    let sent = false;
    const out: Outgoing = {
      input,
      init,
      url,
      replayable: spare !== undefined || !(init?.body instanceof ReadableStream),
      next() {
        if (!sent) {
          sent = true;
          return input;
        }
        return spare?.clone() ?? input;
      },
    };

    // Authorization is shared and outlives any one request: a request stops waiting when its signal aborts.
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    let tokens = await untilAborted(this.#usableTokens(key), signal);
    let response = await this.#send(out, tokens);
    if (response.status === 401 && out.replayable) {
      // #send has answered one nonce challenge already for a DPoP-bound token.
      if (tokens !== undefined && isDpopBound(tokens) && this.#dpop !== undefined && isDpopNonceChallenge(response)) {
        throw await nonceRefused(server, response);
      }
      const challenge = parseChallenge(response);
      await discard(response);
      tokens = await untilAborted(this.#recover(server, key, tokens, { challenge }), signal);
      response = await this.#send(out, tokens);
      if (response.status === 401) {
        if (isDpopBound(tokens) && isDpopNonceChallenge(response)) throw await nonceRefused(server, response);
        await discard(response);
        throw new AuthorizationError(
          'ERR_UNAUTHORIZED',
          `${server.href} refused a token obtained just now (HTTP 401): check the server's audience and issuer ` +
            'configuration',
          {
            serverUrl: server.href,
            issuer: tokens.issuer,
            resource: tokens.resource,
            tokenType: tokens.tokenType,
            challenge: parseChallenge(response),
          },
        );
      }
    }
    for (let round = 0; response.status === 403 && out.replayable && tokens !== undefined; round++) {
      const challenge = parseChallenge(response);
      if (challenge?.error !== 'insufficient_scope') break;
      const scope = unionScopes(tokens.scope, challenge.scope);
      const attemptKey = `${key} ${scope ?? ''}`;
      const attempts = this.#stepUps.get(attemptKey) ?? 0;
      if (attempts >= this.#maxStepUps || round >= this.#maxStepUps) {
        await discard(response);
        throw new AuthorizationError(
          'ERR_STEP_UP_LIMIT',
          `${server.href} still answers 403 insufficient_scope after ${attempts} step-up authorization(s) for ` +
            `scope "${scope ?? ''}": giving up (the user may lack the permission, or the server asks for a scope it ` +
            'cannot get)',
          { serverUrl: server.href, scope, required: challenge.scope, attempts },
        );
      }
      this.#stepUps.set(attemptKey, attempts + 1);
      await discard(response);
      tokens = await untilAborted(this.#recover(server, key, tokens, { challenge, scope }), signal);
      response = await this.#send(out, tokens);
      if (response.status !== 403) this.#stepUps.delete(attemptKey);
    }
    return response;
  }

  #bind(url: URL | undefined): URL {
    if (this.#server === undefined) {
      if (url === undefined) throw new TypeError('OAuthClient: no serverUrl given and no request made yet');
      this.#server = canonicalResource(url);
    }
    return this.#server;
  }

  /**
   * Sends with the tokens: `Bearer`, or for a DPoP-bound token `DPoP` with a proof of this very request. A DPoP
   * server's nonce challenge (RFC 9449 §9) is answered here, once, so every caller gets it.
   */
  async #send(out: Outgoing, tokens: StoredTokens | undefined): Promise<Response> {
    if (tokens === undefined) {
      const response = await this.#baseFetch(out.next(), out.init);
      // A server may hand out its nonce with the first challenge: the first DPoP request can then use it.
      this.#dpop?.rememberNonce(out.url, response);
      return response;
    }
    // A DPoP token with DPoP since turned off goes out as Bearer: the server refuses it and new tokens follow.
    const dpop = isDpopBound(tokens) ? await this.#prover() : undefined;
    if (dpop === undefined) return this.#baseFetch(out.next(), bearerInit(out, tokens));
    let response = await this.#baseFetch(out.next(), await dpopInit(out, tokens, dpop));
    if (dpop.rememberNonce(out.url, response) && out.replayable && isDpopNonceChallenge(response)) {
      await discard(response);
      response = await this.#baseFetch(out.next(), await dpopInit(out, tokens, dpop));
      dpop.rememberNonce(out.url, response);
    }
    return response;
  }

  /** The DPoP prover, generated on first use when the provider says `dpop: true`; undefined without DPoP. */
  #prover(): Promise<DpopProver | undefined> | undefined {
    if (this.#dpopReady === undefined && this.#provider.dpop === true) {
      this.#dpopReady = DpopProver.generate().then((prover) => {
        this.#dpop = prover;
        return prover;
      });
      // A failed generation (no WebCrypto ECDSA) is reported to the request that needed it, and retried by the next.
      this.#dpopReady.catch(() => {
        this.#dpopReady = undefined;
      });
    }
    return this.#dpopReady;
  }

  /** The stored tokens, refreshed first when they are about to expire; undefined when there are none usable. */
  async #usableTokens(key: string): Promise<StoredTokens | undefined> {
    const inflight = this.#inflight.get(key);
    if (inflight !== undefined) return inflight.catch(() => undefined);
    const tokens = await this.#store.getTokens(key);
    if (tokens === undefined || tokens.expiresAt === undefined) return tokens;
    if (tokens.expiresAt - this.#refreshSkewMs > Date.now()) return tokens;
    if (tokens.refreshToken === undefined) return tokens.expiresAt > Date.now() ? tokens : undefined;
    return this.#single(key, () => this.#refresh(key, tokens)).catch(() => undefined);
  }

  /**
   * After a 401 or a 403 `insufficient_scope`: the tokens to retry with. Another request may have replaced the
   * tokens meanwhile (then those are used); otherwise refresh (401 with a refresh token), else authorize.
   */
  async #recover(server: URL, key: string, used: StoredTokens | undefined, need: TokenNeed): Promise<StoredTokens> {
    const inflight = this.#inflight.get(key);
    if (inflight !== undefined) return inflight;
    const awaiting = this.#awaitingCallback.get(key);
    if (awaiting !== undefined) {
      if (Date.now() - awaiting.since < PENDING_TTL_MS) throw awaiting.error;
      this.#awaitingCallback.delete(key);
    }
    // Another request may have replaced the tokens since this one was sent (with enough scope for a step-up).
    const current = await this.#store.getTokens(key);
    if (
      current !== undefined &&
      current.accessToken !== used?.accessToken &&
      (need.scope === undefined || splitScope(need.scope).every((item) => splitScope(current.scope).includes(item)))
    ) {
      return current;
    }
    return this.#single(key, async () => {
      if (need.scope === undefined && current?.refreshToken !== undefined) {
        try {
          return await this.#refresh(key, current);
        } catch {
          // The refresh token is gone or refused: a new authorization follows.
        }
      }
      return this.#obtain(server, need);
    });
  }

  #single(key: string, run: () => Promise<StoredTokens>): Promise<StoredTokens> {
    const existing = this.#inflight.get(key);
    if (existing !== undefined) return existing;
    const promise = run().finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, promise);
    return promise;
  }

  // ---- grants ----

  async #refresh(key: string, tokens: StoredTokens): Promise<StoredTokens> {
    const credentials = await this.#credentialsFor(tokens.authorizationServer);
    let response: TokenResponse;
    try {
      response = await requestToken({
        authorizationServer: tokens.authorizationServer,
        credentials,
        grant: {
          grant_type: 'refresh_token',
          refresh_token: tokens.refreshToken!,
          resource: tokens.resource,
        },
        fetch: this.#authFetch,
        dpop: await this.#prover(),
      });
    } catch (error) {
      // The authorization server refused the grant (invalid_grant …): it will not work again. A network failure
      // keeps the tokens for the next try.
      if (OAuthError.is(error) && error.source === 'authorization-server') await this.#store.setTokens(key, undefined);
      throw error;
    }
    // RFC 6749 §6: without a new refresh token, the old one stays valid.
    return this.#save(key, { refresh_token: tokens.refreshToken, ...response }, tokens);
  }

  /** Discovery, registration and a grant: new tokens for `server`. */
  async #obtain(server: URL, need: TokenNeed): Promise<StoredTokens> {
    const key = resourceKey(server);
    const found = await discover(server, {
      fetch: this.#authFetch,
      resourceMetadataUrl: need.challenge?.resourceMetadata,
      selectAuthorizationServer: this.#selectAuthorizationServer,
    });
    const { authorizationServer, resource } = found;
    const scope =
      need.scope ??
      selectScope({
        challengeScope: need.challenge?.scope,
        resourceMetadata: found.resourceMetadata,
        authorizationServer,
        wantRefreshTokens: this.#wantRefreshTokens,
      });
    const credentials = await this.#credentialsFor(authorizationServer);
    const grant = this.#provider.grant;
    if (grant !== undefined) {
      const response = await grant.obtain({
        authorizationServer,
        resource: new URL(resource),
        scope,
        credentials,
        fetch: this.#authFetch,
        dpop: await this.#prover(),
      });
      return this.#save(key, response, { resource, scope, issuer: authorizationServer.issuer, authorizationServer });
    }
    return this.#authorizationCode(server, found, scope, credentials);
  }

  async #authorizationCode(
    server: URL,
    found: DiscoveryResult,
    scope: string | undefined,
    credentials: ClientCredentials,
  ): Promise<StoredTokens> {
    const { authorizationServer, resource } = found;
    const key = resourceKey(server);
    const redirect = this.#provider.redirectToAuthorization;
    const redirectUrl = this.#provider.redirectUrl;
    if (redirect === undefined || redirectUrl === undefined) {
      throw new AuthorizationError(
        'ERR_AUTHORIZATION_REQUIRED',
        `${server.href} needs authorization, and the provider has no redirectUrl and redirectToAuthorization ` +
          '(nor a non-interactive grant)',
        { serverUrl: server.href, issuer: authorizationServer.issuer },
      );
    }
    const endpoint = authorizationServer.authorization_endpoint;
    if (endpoint === undefined) {
      throw new AuthorizationError(
        'ERR_DISCOVERY_FAILED',
        `The authorization server ${authorizationServer.issuer} has no authorization_endpoint`,
        { issuer: authorizationServer.issuer },
      );
    }
    const url = checkAuthorizationEndpoint(endpoint, authorizationServer.issuer);
    checkPkceSupport(authorizationServer, found.defaultEndpoints);
    const pkce = await createPkcePair();
    const state = randomToken();
    const redirectUri = String(redirectUrl);
    const pending: PendingAuthorization = {
      state,
      codeVerifier: pkce.verifier,
      redirectUri,
      serverUrl: key,
      resource,
      ...(scope !== undefined && { scope }),
      issuer: authorizationServer.issuer,
      authorizationServer,
      clientId: credentials.clientId,
      createdAt: Date.now(),
    };
    await this.#store.setPending(state, pending);
    const params = url.searchParams;
    params.set('response_type', 'code');
    params.set('client_id', credentials.clientId);
    params.set('redirect_uri', redirectUri);
    params.set('code_challenge', pkce.challenge);
    params.set('code_challenge_method', pkce.method);
    params.set('state', state);
    params.set('resource', resource);
    if (scope !== undefined) params.set('scope', scope);
    // RFC 9449 §10: binds the authorization code to the key, so a stolen code cannot be redeemed with another.
    const dpop = await this.#prover();
    if (dpop !== undefined) params.set('dpop_jkt', await dpop.thumbprint());

    const release = this.#onWaitingForUser?.();
    let callback: Awaited<ReturnType<typeof redirect>>;
    try {
      callback = await redirect.call(this.#provider, { authorizationUrl: url, state, redirectUri });
    } finally {
      release?.();
    }
    if (callback === undefined) {
      const error = new UnauthorizedError(url, { serverUrl: server.href, issuer: authorizationServer.issuer });
      this.#awaitingCallback.set(key, { error, since: Date.now() });
      throw error;
    }
    return this.finish(callback);
  }

  async #credentialsFor(authorizationServer: AuthorizationServerMetadata, signal?: AbortSignal) {
    return resolveClientCredentials({
      authorizationServer,
      provider: this.#provider,
      store: this.#store,
      fetch: this.#authFetch,
      signal,
      wantRefreshTokens: this.#wantRefreshTokens,
    });
  }

  async #save(
    key: string,
    response: TokenResponse,
    origin: Pick<StoredTokens, 'resource' | 'issuer' | 'authorizationServer'> & { scope?: string },
  ): Promise<StoredTokens> {
    const tokens: StoredTokens = {
      accessToken: response.access_token,
      tokenType: response.token_type,
      ...(typeof response.refresh_token === 'string' && { refreshToken: response.refresh_token }),
      ...(typeof response.expires_in === 'number' && { expiresAt: Date.now() + response.expires_in * 1000 }),
      // RFC 6749 §5.1: a response without scope means the requested scope was granted.
      ...((response.scope ?? origin.scope) !== undefined && { scope: response.scope ?? origin.scope }),
      resource: origin.resource,
      issuer: origin.issuer,
      authorizationServer: origin.authorizationServer,
    };
    await this.#store.setTokens(key, tokens);
    return tokens;
  }
}

/** RFC 8414 + MCP 2025-11-25: no advertised S256, no authorization (the 2025-03-26 default endpoints excepted). */
function checkPkceSupport(authorizationServer: AuthorizationServerMetadata, defaultEndpoints: boolean): void {
  if (defaultEndpoints) return;
  if (authorizationServer.code_challenge_methods_supported?.includes('S256') === true) return;
  throw new AuthorizationError(
    'ERR_PKCE_UNSUPPORTED',
    `The authorization server ${authorizationServer.issuer} does not advertise PKCE with S256 ` +
      '(code_challenge_methods_supported): MCP clients must not authorize without it',
    { issuer: authorizationServer.issuer, supported: authorizationServer.code_challenge_methods_supported },
  );
}

function parseChallenge(response: Response): BearerChallenge | undefined {
  const header = response.headers.get('www-authenticate');
  // A DPoP-only server challenges with DPoP (RFC 9449 §7.1); its parameters mean the same.
  return parseChallengeOf(header, 'bearer') ?? parseChallengeOf(header, 'dpop');
}

/** A second nonce challenge right after answering one: a new authorization would not help, so none is started. */
async function nonceRefused(server: URL, response: Response): Promise<AuthorizationError> {
  await discard(response);
  return new AuthorizationError(
    'ERR_UNAUTHORIZED',
    `${server.href} asked for a new DPoP nonce again right after a retry with the nonce it sent: check the server's ` +
      'nonce lifetime and clock',
    { serverUrl: server.href, challenge: response.headers.get('www-authenticate') },
  );
}
