// GET /callback: the upstream provider sends the user back here. The proxy redeems the upstream code itself, then
// gives the MCP client a code of its own, with the client's state and the proxy's iss (RFC 9207).

import { randomToken } from '../../shared/random';
import { errorToClient } from './authorize';
import { OAuthProxyError } from './errors';
import { htmlErrorPage, redirectTo } from './http';
import type { ProxyConfig, UpstreamIdentity } from './options';
import type { IssuedCode, ProxyState } from './records';
import { exchangeUpstreamCode, identityFromIdToken } from './upstream';

// Upstream errors that mean the same to the MCP client; anything else is the proxy's problem, not the client's.
const PASSED_THROUGH = new Set(['access_denied', 'invalid_scope', 'temporarily_unavailable']);

/** GET /callback. */
export async function handleCallback(request: Request, config: ProxyConfig, state: ProxyState): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const id = params.get('state');
  // Taken, not read: a callback URL replayed (from history, a log, a referer) finds nothing.
  const tx = id === null ? undefined : await state.takeTransaction(id);
  if (tx === undefined || !tx.approved) {
    return htmlErrorPage(
      400,
      'Request expired',
      'This sign-in request is unknown or has expired. Start again from your application.',
    );
  }
  const fail = (error: string, description: string) =>
    errorToClient(config, tx.redirect_uri, tx.state, error, description);

  const iss = params.get('iss');
  if (config.upstream.issuer !== undefined && iss !== null && iss !== config.upstream.issuer) {
    return fail('server_error', 'The identity provider’s response came from an unexpected issuer');
  }
  const upstreamError = params.get('error');
  if (upstreamError !== null) {
    const error = PASSED_THROUGH.has(upstreamError) ? upstreamError : 'server_error';
    return fail(
      error,
      `The identity provider answered ${upstreamError}${params.has('error_description') ? `: ${params.get('error_description')}` : ''}`,
    );
  }
  const code = params.get('code');
  if (code === null) return fail('server_error', 'The identity provider sent neither a code nor an error');

  let issued: IssuedCode;
  try {
    const upstream = await exchangeUpstreamCode(config, code, tx.upstream_verifier);
    const identity: UpstreamIdentity = await (config.identify ?? ((tokens) => identityFromIdToken(config, tokens)))(
      upstream,
    );
    issued = {
      client_id: tx.client_id,
      redirect_uri: tx.redirect_uri,
      code_challenge: tx.code_challenge,
      scopes: tx.scopes,
      resource: tx.resource,
      upstream,
      family: randomToken(16),
    };
    if (typeof upstream.expires_in === 'number') issued.upstream_expires_at = config.now() + upstream.expires_in * 1000;
    if (identity.subject !== undefined) issued.subject = identity.subject;
    if (identity.claims !== undefined) issued.claims = identity.claims;
  } catch (error) {
    const detail = OAuthProxyError.is(error) ? error.message : 'identifying the user failed';
    return fail('server_error', `Signing in with the identity provider failed: ${detail}`);
  }
  const proxyCode = randomToken(32);
  await state.saveCode(proxyCode, issued, config.authorizationCodeTtlSeconds);
  return redirectTo(tx.redirect_uri, { code: proxyCode, state: tx.state, iss: config.issuer });
}
