// GET /authorize: checks the MCP client's request and keeps it; the consent form's POST; then the redirect upstream.

import { createPkcePair, isS256Challenge } from '../../shared/pkce';
import { randomToken, sha256Base64Url, timingSafeEqual } from '../../shared/random';
import { findClient } from './client-lookup';
import { consentPage } from './consent-page';
import { htmlErrorPage, readForm, redirectTo } from './http';
import { normalizeResource, type ProxyConfig } from './options';
import type { AuthorizationTransaction, ProxyClient, ProxyState } from './records';
import { redirectUriMatches } from './redirect-uri';
import { upstreamAuthorizationUrl } from './upstream';

const COOKIE_PREFIX = 'mcp_proxy_consent_';

function cookieName(config: ProxyConfig, transactionId: string): string {
  // __Host- keeps the cookie to this exact origin and path; browsers only accept it with Secure, so https only.
  return `${config.secureCookies ? '__Host-' : ''}${COOKIE_PREFIX}${transactionId}`;
}

function cookieHeader(config: ProxyConfig, transactionId: string, value: string, maxAge: number): string {
  const secure = config.secureCookies ? '; Secure' : '';
  return `${cookieName(config, transactionId)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** An error sent back to the client's (already checked) redirect URI, with its state and the proxy's `iss`. */
export function errorToClient(
  config: ProxyConfig,
  redirectUri: string,
  state: string | undefined,
  error: string,
  description: string,
): Response {
  return redirectTo(redirectUri, { error, error_description: description, state, iss: config.issuer });
}

async function toUpstream(config: ProxyConfig, id: string, tx: AuthorizationTransaction): Promise<Response> {
  const challenge = await sha256Base64Url(tx.upstream_verifier);
  return redirectTo(upstreamAuthorizationUrl(config, id, challenge, tx.scopes), {});
}

/** GET /authorize. */
export async function handleAuthorize(request: Request, config: ProxyConfig, state: ProxyState): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const clientId = params.get('client_id');
  if (clientId === null || clientId === '') return htmlErrorPage(400, 'Invalid request', 'client_id is missing.');
  let client: ProxyClient | undefined;
  try {
    client = await findClient(clientId, config, state);
  } catch {
    // Anyone can send a client_id URL here: telling them why the fetch failed (refused, timed out, which status an
    // internal address answered) would turn the proxy into a probe of the network behind it.
    return htmlErrorPage(400, 'Unknown client', 'The client could not be verified.');
  }
  // RFC 6749 §4.1.2.1: with an unknown client or a redirect URI that does not match, tell the user, never redirect.
  if (client === undefined) {
    return htmlErrorPage(
      400,
      'Unknown client',
      `No client '${clientId}' is registered here. Ask the application to register again.`,
    );
  }
  let redirectUri = params.get('redirect_uri') ?? undefined;
  if (redirectUri === undefined) {
    if (client.redirect_uris.length !== 1) return htmlErrorPage(400, 'Invalid request', 'redirect_uri is missing.');
    redirectUri = client.redirect_uris[0] as string;
  } else if (!redirectUriMatches(redirectUri, client.redirect_uris)) {
    return htmlErrorPage(400, 'Invalid redirect URI', `'${redirectUri}' is not registered for this client.`);
  }
  const clientState = params.get('state') ?? undefined;
  const fail = (error: string, description: string) =>
    errorToClient(config, redirectUri, clientState, error, description);

  if (params.get('response_type') !== 'code')
    return fail('unsupported_response_type', 'Only response_type=code is supported');
  const challenge = params.get('code_challenge');
  if (challenge === null || params.get('code_challenge_method') !== 'S256' || !isS256Challenge(challenge)) {
    return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
  }
  const requestedResources = params.getAll('resource');
  if (requestedResources.length > 1) return fail('invalid_target', 'Ask for one resource at a time');
  let resource = config.resources[0] as string;
  if (requestedResources.length === 1) {
    let normalized: string | undefined;
    try {
      normalized = normalizeResource(requestedResources[0] as string);
    } catch {
      normalized = undefined;
    }
    if (normalized === undefined || !config.resources.includes(normalized)) {
      return fail('invalid_target', `This server issues tokens for ${config.resources.join(', ')} only`);
    }
    resource = normalized;
  }
  const scopes = (params.get('scope') ?? '').split(' ').filter((s) => s !== '');
  const supported = config.scopesSupported;
  if (supported !== undefined) {
    const unknown = scopes.filter((s) => !supported.includes(s));
    if (unknown.length > 0) return fail('invalid_scope', `Unsupported scope: ${unknown.join(' ')}`);
  }

  const { verifier } = await createPkcePair();
  const id = randomToken(24);
  const tx: AuthorizationTransaction = {
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    scopes,
    resource,
    upstream_verifier: verifier,
    csrf: randomToken(24),
    approved: !config.consent,
  };
  if (clientState !== undefined) tx.state = clientState;
  await state.saveTransaction(id, tx, config.transactionTtlSeconds);
  if (!config.consent) return toUpstream(config, id, tx);
  return consentPage({
    client,
    redirectUri,
    scopes,
    resource,
    transactionId: id,
    csrf: tx.csrf,
    formAction: config.endpoints.authorize.href,
    cookie: cookieHeader(config, id, tx.csrf, config.transactionTtlSeconds),
  });
}

/** POST /authorize: the consent form. Approval sends the user upstream; denial goes back to the client. */
export async function handleConsent(request: Request, config: ProxyConfig, state: ProxyState): Promise<Response> {
  const form = await readForm(request);
  const id = form?.get('transaction') ?? '';
  const csrf = form?.get('csrf') ?? '';
  const tx = id === '' ? undefined : await state.getTransaction(id);
  if (tx === undefined) {
    return htmlErrorPage(
      400,
      'Request expired',
      'This sign-in request is unknown or has expired. Start again from your application.',
    );
  }
  // Double submit: the form's token must match the cookie set with the page, so only the browser shown the page can
  // answer it (another site can post the form, but cannot read or set our cookie).
  const cookie = readCookie(request, cookieName(config, id)) ?? '';
  if (!timingSafeEqual(csrf, tx.csrf) || !timingSafeEqual(cookie, tx.csrf)) {
    return htmlErrorPage(
      403,
      'Consent not confirmed',
      'The consent form did not come from this browser’s page. Start again from your application.',
    );
  }
  const clear = cookieHeader(config, id, '', 0);
  if (form?.get('decision') !== 'approve') {
    await state.takeTransaction(id);
    const response = errorToClient(config, tx.redirect_uri, tx.state, 'access_denied', 'The user denied the request');
    response.headers.append('set-cookie', clear);
    return response;
  }
  const approved: AuthorizationTransaction = { ...tx, approved: true };
  await state.saveTransaction(id, approved, config.transactionTtlSeconds);
  const response = await toUpstream(config, id, approved);
  response.headers.append('set-cookie', clear);
  return response;
}
