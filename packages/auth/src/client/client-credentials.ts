// The client credentials grant (RFC 6749 §4.4, OAuth 2.1 §4.2; MCP extension SEP-1046): a machine client obtains a
// token for itself, authenticating with its secret or key, with no user involved.

import { OAuthError } from './oauth-error';
import { requestToken } from './token-endpoint';
import type { GrantContext, NonInteractiveGrant, TokenResponse } from './types';

/** Options of {@link clientCredentialsGrant}. */
export interface ClientCredentialsGrantOptions {
  /** The scope to ask for, replacing the one the provider selected (from `WWW-Authenticate` or the metadata). */
  scope?: string;
  /** Extra token request parameters an authorization server requires (e.g. `audience` at some providers). */
  parameters?: Record<string, string>;
}

/**
 * A grant for a confidential machine client: sends `grant_type=client_credentials` with the scope and the RFC 8707
 * `resource`, authenticated with `client_secret_basic`, `client_secret_post` or `private_key_jwt`.
 *
 * @example
 * ```ts
 * const grant = clientCredentialsGrant();
 * const tokens = await grant.obtain({
 *   authorizationServer: metadata,
 *   resource: new URL('https://mcp.example.com/mcp'),
 *   scope: 'tools:read',
 *   credentials: { clientId: 'reporting-bot', clientSecret: process.env.CLIENT_SECRET },
 *   fetch,
 * });
 * ```
 */
export function clientCredentialsGrant(options: ClientCredentialsGrantOptions = {}): NonInteractiveGrant {
  return {
    grantType: 'client_credentials',
    obtain(context: GrantContext): Promise<TokenResponse> {
      const { credentials } = context;
      // RFC 6749 §4.4: only a confidential client may use this grant; a public one would get tokens for anyone.
      if (
        credentials.authMethod === 'none' ||
        (credentials.clientSecret === undefined && credentials.privateKey === undefined)
      ) {
        return Promise.reject(
          new OAuthError(
            'ERR_CLIENT_AUTHENTICATION',
            'The client credentials grant needs a confidential client: configure a clientSecret or a privateKey.',
            { source: 'client', data: { clientId: credentials.clientId, authMethod: credentials.authMethod } },
          ),
        );
      }
      const grant: Record<string, string> = { ...options.parameters, grant_type: 'client_credentials' };
      const scope = options.scope ?? context.scope;
      if (scope !== undefined && scope !== '') grant.scope = scope;
      grant.resource = context.resource.href;
      return requestToken({
        authorizationServer: context.authorizationServer,
        credentials,
        grant,
        fetch: context.fetch,
        signal: context.signal,
        dpop: context.dpop,
      });
    },
  };
}
