// An in-process MCP server and authorization server, as `fetch` handlers on Request/Response (no sockets): enough
// OAuth to exercise the client end to end, and a log of every request to assert on.

import { DpopProofChecker } from './fake-dpop';

export interface LoggedRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

interface IssuedToken {
  scope: string | undefined;
  resource: string | undefined;
  expiresAt: number;
  /** RFC 9449 §6: a DPoP-bound token's key thumbprint (what introspection or a JWT would carry). */
  cnf?: { jkt: string };
}

export interface FakeWorldOptions {
  /** The MCP endpoint. */
  serverUrl?: string;
  issuer?: string;
  /** Where the PRM is served: the path-aware URL, the root one, or nowhere (2025-03-26 server). */
  prmAt?: 'path' | 'root' | 'none';
  /** Put `resource_metadata` in the 401's WWW-Authenticate. */
  prmInHeader?: boolean;
  /** The PRM's `resource` (default: the server URL). */
  prmResource?: string;
  prmScopes?: string[];
  /** The scope the 401 challenge names. */
  challengeScope?: string;
  /** Where the AS metadata is served (a path on the issuer's origin); default: RFC 8414 for the issuer. */
  metadataPath?: string | null;
  /** Merged into the AS metadata. */
  metadata?: Record<string, unknown>;
  /** The scope each MCP method needs (403 insufficient_scope otherwise). */
  requiredScopes?: Record<string, string>;
  /** `expires_in` of issued access tokens. */
  expiresIn?: number;
  issueRefreshTokens?: boolean;
  /** Scopes the user never grants: the token response leaves them out. */
  deniedScopes?: string[];
  /** What `iss` the authorization response carries. */
  responseIss?: 'issuer' | 'other' | 'none';
  /**
   * DPoP (RFC 9449): the token endpoint binds tokens to the key of a proof it is sent (plain Bearer without one), and
   * the MCP server challenges with `DPoP` and checks proofs of bound tokens. A nonce set here is demanded.
   */
  dpop?: { tokenNonce?: string; resourceNonce?: string };
}

export class FakeOAuthWorld {
  readonly requests: LoggedRequest[] = [];
  readonly serverUrl: URL;
  readonly issuer: string;
  readonly options: FakeWorldOptions;
  readonly tokens = new Map<string, IssuedToken>();
  readonly refreshTokens = new Map<string, { scope: string | undefined; resource: string | undefined; jkt?: string }>();
  readonly codes = new Map<
    string,
    { challenge: string; scope?: string; resource?: string; redirectUri: string; dpopJkt?: string }
  >();
  /** The proof checks of the token endpoint and of the MCP server (DPoP worlds). */
  readonly tokenProofs: DpopProofChecker;
  readonly resourceProofs: DpopProofChecker;
  /** Refresh requests fail with invalid_grant while true. */
  refreshFails = false;
  #counter = 0;

  constructor(options: FakeWorldOptions = {}) {
    this.options = options;
    this.serverUrl = new URL(options.serverUrl ?? 'https://mcp.example.com/mcp');
    this.issuer = options.issuer ?? 'https://auth.example.com';
    this.tokenProofs = new DpopProofChecker(options.dpop?.tokenNonce);
    this.resourceProofs = new DpopProofChecker(options.dpop?.resourceNonce);
  }

  /** The `fetch` of this world: every request is logged, then routed by origin and path. */
  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    this.requests.push({ method: request.method, url: request.url, headers: request.headers, body });
    return this.#route(request, body);
  };

  /** The requests whose URL starts with `prefix`. */
  requestsTo(prefix: string): LoggedRequest[] {
    return this.requests.filter((request) => request.url.startsWith(prefix));
  }

  get prmUrl(): string {
    const at = this.options.prmAt ?? 'path';
    return at === 'root'
      ? `${this.serverUrl.origin}/.well-known/oauth-protected-resource`
      : `${this.serverUrl.origin}/.well-known/oauth-protected-resource${this.serverUrl.pathname}`;
  }

  get metadataUrl(): string | undefined {
    if (this.options.metadataPath === null) return undefined;
    const issuer = new URL(this.issuer);
    const path =
      this.options.metadataPath ?? `/.well-known/oauth-authorization-server${issuer.pathname.replace(/\/$/, '')}`;
    return `${issuer.origin}${path}`;
  }

  metadataDocument(): Record<string, unknown> {
    return {
      issuer: this.issuer,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token`,
      registration_endpoint: `${this.issuer}/register`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      ...this.options.metadata,
    };
  }

  async #route(request: Request, body: string): Promise<Response> {
    const url = new URL(request.url);
    const href = `${url.origin}${url.pathname}`;
    if (href === this.serverUrl.href && request.method === 'POST') return this.#mcp(request, body);
    if ((this.options.prmAt ?? 'path') !== 'none' && href === this.prmUrl) {
      return Response.json({
        resource: this.options.prmResource ?? this.serverUrl.href,
        authorization_servers: [this.issuer],
        ...(this.options.prmScopes !== undefined && { scopes_supported: this.options.prmScopes }),
      });
    }
    if (href === this.metadataUrl) return Response.json(this.metadataDocument());
    const metadata = this.metadataDocument();
    if (href === metadata.authorization_endpoint) return this.#authorize(url);
    if (href === metadata.token_endpoint && request.method === 'POST') return this.#token(request, body);
    if (href === metadata.registration_endpoint && request.method === 'POST') {
      const registration = JSON.parse(body) as Record<string, unknown>;
      return Response.json({ client_id: `client-${++this.#counter}`, ...registration }, { status: 201 });
    }
    return new Response('not found', { status: 404 });
  }

  #challenge(extra = ''): string {
    // A DPoP server challenges with DPoP alone (RFC 9449 §7.1), resource_metadata included.
    const parts = [this.options.dpop === undefined ? 'Bearer' : 'DPoP'];
    const params: string[] = this.options.dpop === undefined ? [] : ['algs="ES256"'];
    if (this.options.prmInHeader !== false && (this.options.prmAt ?? 'path') !== 'none') {
      params.push(`resource_metadata="${this.prmUrl}"`);
    }
    if (extra !== '') params.push(extra);
    return `${parts.join(' ')} ${params.join(', ')}`.trim();
  }

  async #mcp(request: Request, body: string): Promise<Response> {
    const authorization = request.headers.get('authorization');
    const scheme = authorization?.slice(0, authorization.indexOf(' ')).toLowerCase();
    const token = scheme === 'bearer' || scheme === 'dpop' ? authorization!.slice(scheme.length + 1) : undefined;
    const issued = token === undefined ? undefined : this.tokens.get(token);
    if (issued?.cnf !== undefined || (scheme === 'dpop' && issued !== undefined)) {
      // RFC 9449 §7.2: a bound token only with the DPoP scheme and a proof of this request by the bound key.
      const verdict =
        scheme === 'dpop' && issued.cnf !== undefined
          ? await this.resourceProofs.check(request.headers.get('dpop'), {
              method: request.method,
              url: request.url,
              accessToken: token,
            })
          : ({ ok: false, error: 'invalid_token', reason: 'scheme does not match the binding' } as const);
      if (!verdict.ok || verdict.jkt !== issued.cnf?.jkt) {
        const error = verdict.ok ? 'invalid_token' : verdict.error;
        const nonce = error === 'use_dpop_nonce' ? this.resourceProofs.nonce : undefined;
        return new Response('unauthorized', {
          status: 401,
          headers: {
            'WWW-Authenticate': `DPoP algs="ES256", error="${error}"`,
            ...(nonce !== undefined && { 'DPoP-Nonce': nonce }),
          },
        });
      }
    }
    if (issued === undefined || issued.expiresAt <= Date.now()) {
      const scope = this.options.challengeScope;
      const error = token === undefined ? '' : 'error="invalid_token"';
      return new Response('unauthorized', {
        status: 401,
        headers: {
          'WWW-Authenticate': this.#challenge(
            [error, scope === undefined ? '' : `scope="${scope}"`].filter(Boolean).join(', '),
          ),
        },
      });
    }
    const message = JSON.parse(body) as { id?: number; method: string };
    const required = this.options.requiredScopes?.[message.method];
    const granted = new Set((issued.scope ?? '').split(' '));
    if (required !== undefined && !required.split(' ').every((scope) => granted.has(scope))) {
      return new Response('forbidden', {
        status: 403,
        headers: { 'WWW-Authenticate': this.#challenge(`error="insufficient_scope", scope="${required}"`) },
      });
    }
    return Response.json({ jsonrpc: '2.0', id: message.id ?? null, result: { method: message.method, token } });
  }

  #authorize(url: URL): Response {
    const params = url.searchParams;
    const redirect = new URL(params.get('redirect_uri')!);
    const code = `code-${++this.#counter}`;
    this.codes.set(code, {
      // A server without DPoP ignores dpop_jkt, as it ignores any parameter it does not know.
      ...(this.options.dpop !== undefined && params.has('dpop_jkt') && { dpopJkt: params.get('dpop_jkt')! }),
      challenge: params.get('code_challenge') ?? '',
      scope: params.get('scope') ?? undefined,
      resource: params.get('resource') ?? undefined,
      redirectUri: params.get('redirect_uri')!,
    });
    redirect.searchParams.set('code', code);
    redirect.searchParams.set('state', params.get('state') ?? '');
    const iss = this.options.responseIss ?? 'none';
    if (iss !== 'none') redirect.searchParams.set('iss', iss === 'issuer' ? this.issuer : 'https://evil.example.com');
    return new Response(null, { status: 302, headers: { Location: redirect.href } });
  }

  async #token(request: Request, body: string): Promise<Response> {
    const form = new URLSearchParams(body);
    const grant = form.get('grant_type');
    let scope: string | undefined;
    let resource: string | undefined;
    let jkt: string | undefined;
    const proof = request.headers.get('dpop');
    if (this.options.dpop !== undefined && proof !== null) {
      const verdict = await this.tokenProofs.check(proof, { method: 'POST', url: request.url });
      if (!verdict.ok) {
        const nonce = verdict.error === 'use_dpop_nonce' ? this.tokenProofs.nonce : undefined;
        return Response.json(
          { error: verdict.error, error_description: verdict.reason },
          { status: 400, headers: nonce === undefined ? {} : { 'DPoP-Nonce': nonce } },
        );
      }
      jkt = verdict.jkt;
    }
    if (grant === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
      const challenge = btoa(String.fromCharCode(...digest))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
      if (code === undefined || code.challenge !== challenge || code.redirectUri !== form.get('redirect_uri')) {
        return Response.json({ error: 'invalid_grant', error_description: 'bad code or verifier' }, { status: 400 });
      }
      // RFC 9449 §10.1: a code bound with dpop_jkt is redeemed only with a proof of that key.
      if (code.dpopJkt !== undefined && code.dpopJkt !== jkt) {
        return Response.json({ error: 'invalid_dpop_proof', error_description: 'dpop_jkt mismatch' }, { status: 400 });
      }
      scope = code.scope
        ?.split(' ')
        .filter((item) => !(this.options.deniedScopes ?? []).includes(item))
        .join(' ');
      resource = code.resource;
    } else if (grant === 'refresh_token') {
      const stored = this.refreshTokens.get(form.get('refresh_token') ?? '');
      if (stored === undefined || this.refreshFails) {
        return Response.json({ error: 'invalid_grant', error_description: 'refresh token revoked' }, { status: 400 });
      }
      // RFC 9449 §5: a public client's refresh token is bound to the key too.
      if (stored.jkt !== undefined && stored.jkt !== jkt) {
        return Response.json(
          { error: 'invalid_grant', error_description: 'refresh token bound to another key' },
          {
            status: 400,
          },
        );
      }
      scope = stored.scope;
      resource = stored.resource;
    } else if (grant === 'client_credentials') {
      scope = form.get('scope') ?? undefined;
      resource = form.get('resource') ?? undefined;
    } else {
      return Response.json({ error: 'unsupported_grant_type' }, { status: 400 });
    }
    const accessToken = `at-${++this.#counter}`;
    const expiresIn = this.options.expiresIn ?? 3600;
    this.tokens.set(accessToken, {
      scope,
      resource,
      expiresAt: Date.now() + expiresIn * 1000,
      ...(jkt !== undefined && { cnf: { jkt } }),
    });
    let refreshToken: string | undefined;
    if (this.options.issueRefreshTokens === true) {
      refreshToken = `rt-${++this.#counter}`;
      this.refreshTokens.set(refreshToken, { scope, resource, ...(jkt !== undefined && { jkt }) });
    }
    return Response.json({
      access_token: accessToken,
      token_type: jkt === undefined ? 'Bearer' : 'DPoP',
      expires_in: expiresIn,
      ...(scope !== undefined && { scope }),
      ...(refreshToken !== undefined && { refresh_token: refreshToken }),
    });
  }
}

/** The user: follows the authorization URL through the world's `fetch` and returns the redirect's Location. */
export function browserOf(world: FakeOAuthWorld) {
  return async ({ authorizationUrl }: { authorizationUrl: URL }): Promise<string> => {
    const response = await world.fetch(authorizationUrl, { redirect: 'manual' });
    return response.headers.get('location')!;
  };
}

/** An MCP JSON-RPC POST body. */
export function rpc(method: string, id = 1): RequestInit {
  return {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method }),
  };
}
