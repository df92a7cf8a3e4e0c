// A small OAuth 2.1 authorization server for the demo and the tests: metadata (RFC 8414), /authorize that approves
// every request at once (no login: see the note it prints), /token with PKCE and refresh, /register (RFC 7591), Client
// ID Metadata Documents (an https client_id), JWKS.
// Everything an MCP client needs to run the whole flow on one machine. Not for production: nobody signs in.
import { ClientMetadataError, findClient } from './client-lookup';
import { json, oauthError, randomId, redirect } from './oauth-http';
import { register } from './registration';
import { type AuthorizationServerOptions, type Client, createServerState, type ServerState } from './server-state';
import { token } from './token-endpoint';

export type { AuthorizationServerOptions, PreRegisteredClient } from './server-state';

/** The demo authorization server, from {@link createAuthorizationServer}. */
export interface AuthorizationServer {
  readonly issuer: string;
  /** Answers the server's paths; undefined for any other path. */
  handle(request: Request): Promise<Response | undefined>;
  /** Grant types its token endpoint received, in order (the tests read it; the console prints it). */
  readonly tokenRequests: readonly string[];
}

function normalize(resource: string): string | undefined {
  try {
    return new URL(resource).href;
  } catch {
    return undefined;
  }
}

function metadata(state: ServerState): Record<string, unknown> {
  const { issuer, scopesSupported } = state.options;
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    jwks_uri: `${issuer}/jwks`,
    scopes_supported: [...scopesSupported],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  };
}

async function authorize(request: Request, state: ServerState): Promise<Response> {
  const params = new URL(request.url).searchParams;
  let client: Client | undefined;
  try {
    client = await findClient(params.get('client_id') ?? '', state);
  } catch (error) {
    // Never redirect with a document that failed its checks: its redirect URIs are not trusted.
    if (error instanceof ClientMetadataError) return new Response(error.message, { status: 400 });
    throw error;
  }
  if (client === undefined) {
    return new Response('Unknown client_id: register first, or use a client metadata document URL.', { status: 400 });
  }
  const redirectUri = params.get('redirect_uri') ?? '';
  if (!client.redirect_uris.includes(redirectUri)) {
    return new Response('redirect_uri is not registered for this client.', { status: 400 });
  }
  const clientState = params.get('state') ?? undefined;
  const { issuer } = state.options;
  const fail = (error: string, description: string) =>
    redirect(redirectUri, { error, error_description: description, state: clientState, iss: issuer });
  if (params.get('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  const challenge = params.get('code_challenge');
  if (challenge === null || params.get('code_challenge_method') !== 'S256') {
    return fail('invalid_request', 'PKCE with S256 is required');
  }
  const scopes = (params.get('scope') ?? '').split(' ').filter((s) => s !== '');
  const unknown = scopes.filter((s) => !state.options.scopesSupported.includes(s));
  if (unknown.length > 0) return fail('invalid_scope', `Unknown scope: ${unknown.join(' ')}`);
  const requested = params.get('resource');
  const resource = requested === null ? undefined : normalize(requested);
  if (requested !== null && (resource === undefined || !state.options.resources.map(normalize).includes(resource))) {
    return fail('invalid_target', `Tokens are issued for ${state.options.resources.join(', ')} only`);
  }
  const code = randomId();
  state.codes.set(code, {
    clientId: client.client_id,
    redirectUri,
    challenge,
    scopes,
    resource,
    nonce: params.get('nonce') ?? undefined,
  });
  state.options.onApprove?.(
    `[demo authorization server] auto-approved '${client.client_name ?? client.client_id}' for ${state.subject}` +
      ` (scope: ${scopes.join(' ') || 'none'}) — no login, no consent: this server is for demos and tests only`,
  );
  return redirect(redirectUri, { code, state: clientState, iss: issuer });
}

/**
 * Creates the demo authorization server. Its issuer is its base URL; mount `handle` on that origin.
 *
 * @example
 * const as = await createAuthorizationServer({
 *   issuer: 'http://127.0.0.1:3001',
 *   resources: ['http://127.0.0.1:3000/mcp'],
 *   scopesSupported: ['mcp:tools', 'mcp:admin'],
 * });
 */
export async function createAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const state = await createServerState(options);
  const wellKnown = '/.well-known/oauth-authorization-server';
  return {
    issuer: options.issuer,
    tokenRequests: state.tokenRequests,
    async handle(request) {
      const { pathname } = new URL(request.url);
      const method = request.method;
      if (method === 'OPTIONS') {
        return new Response(null, {
          status: 204,
          headers: {
            'access-control-allow-origin': '*',
            'access-control-allow-methods': 'GET, POST',
            'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
          },
        });
      }
      if (pathname === wellKnown && method === 'GET') return json(metadata(state));
      if (pathname === '/jwks' && method === 'GET') return json({ keys: [state.key.publicJwk] });
      if (pathname === '/authorize' && method === 'GET') return authorize(request, state);
      if (pathname === '/token' && method === 'POST') return token(request, state);
      if (pathname === '/register' && method === 'POST') return register(request, state);
      if ([wellKnown, '/jwks', '/authorize', '/token', '/register'].includes(pathname)) {
        return oauthError(405, 'invalid_request', `${method} is not allowed here`);
      }
      return undefined;
    },
  };
}
