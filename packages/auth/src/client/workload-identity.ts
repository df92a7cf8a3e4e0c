// Workload identity federation (MCP extension SEP-1933, RFC 7523 §2.1): a workload that runs on a platform with its
// own identity (Kubernetes, a cloud VM or function, a CI job) presents a JWT the platform issued for it as the
// authorization grant, and gets an access token without any secret of its own. The platform decides who the workload
// is; the authorization server trusts the platform's issuer.

import { JWT_BEARER_GRANT_TYPE } from './cross-app-access';
import { OAuthError } from './oauth-error';
import { requestToken } from './token-endpoint';
import type { GrantContext, NonInteractiveGrant, TokenResponse } from './types';

/** What the assertion callback is told about the token request it is for. */
export interface WorkloadAssertionRequest {
  /** The authorization server's issuer: the audience the platform's JWT must name (RFC 7523 §3). */
  audience: string;
  /** The MCP server the access token is for. */
  resource: URL;
  signal?: AbortSignal;
}

/** Options of {@link workloadIdentityGrant}. */
export interface WorkloadIdentityGrantOptions {
  /**
   * Returns the JWT the platform issued to this workload, with the authorization server as its audience. Called for
   * every token request, so it can read a rotated file or ask the platform again: these tokens live minutes.
   */
  assertion: (request: WorkloadAssertionRequest) => string | Promise<string>;
  /** The scope to ask for, replacing the one the provider selected (from `WWW-Authenticate` or the metadata). */
  scope?: string;
  /** Extra token request parameters an authorization server requires. */
  parameters?: Record<string, string>;
}

/**
 * The JWT bearer grant with a workload identity token as a {@link NonInteractiveGrant}: sends
 * `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` with the platform's JWT as `assertion`, the scope and the
 * RFC 8707 `resource`. The client authenticates as its credentials say (`none` sends only `client_id`, the usual case:
 * the assertion is the credential). A refusal (`invalid_grant`, `invalid_scope`, `unauthorized_client`) is thrown as
 * an `OAuthError` from the authorization server; the grant never retries it nor falls back to another grant.
 *
 * @example
 * ```ts
 * const fetchWithAuth = createOAuthFetch({
 *   provider: {
 *     clientCredentials: { clientId: 'reporting-job' },
 *     // e.g. the service account token Kubernetes projects into a file for the authorization server's audience.
 *     grant: workloadIdentityGrant({ assertion: ({ audience }) => platform.identityToken(audience) }),
 *   },
 * });
 * ```
 */
export function workloadIdentityGrant(options: WorkloadIdentityGrantOptions): NonInteractiveGrant {
  return {
    grantType: JWT_BEARER_GRANT_TYPE,
    async obtain(context: GrantContext): Promise<TokenResponse> {
      const assertion = (
        await options.assertion({
          audience: context.authorizationServer.issuer,
          resource: context.resource,
          signal: context.signal,
        })
      ).trim();
      if (assertion.split('.').length !== 3) {
        throw new OAuthError(
          'ERR_CLIENT_ASSERTION',
          'The workload identity assertion is not a JWT (three dot-separated parts): check what the assertion callback returns.',
          { source: 'client', data: { issuer: context.authorizationServer.issuer } },
        );
      }
      const grant: Record<string, string> = { ...options.parameters, grant_type: JWT_BEARER_GRANT_TYPE, assertion };
      const scope = options.scope ?? context.scope;
      if (scope !== undefined && scope !== '') grant.scope = scope;
      grant.resource = context.resource.href;
      return requestToken({
        authorizationServer: context.authorizationServer,
        credentials: context.credentials,
        grant,
        fetch: context.fetch,
        signal: context.signal,
        dpop: context.dpop,
      });
    },
  };
}
