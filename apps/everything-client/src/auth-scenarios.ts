import { OAuthClient, type OAuthClientProvider } from '@mcpkit/auth/client';
import { conformanceContext, withClient } from './connection';

// The client `auth/*` authorization-code scenarios of the conformance suite: each runs an MCP session through an
// `OAuthClient` whose provider plays the user. The suite's authorization endpoint redirects at once, so "sending the
// user" is a GET with `redirect: 'manual'` whose `Location` is the callback URL (code, state and iss included).

/** One scenario: drives a client against `url`. */
type Scenario = (url: URL) => Promise<void>;
// Never contacted: the callback URL is read from the authorization endpoint's redirect.
const REDIRECT_URL = 'http://127.0.0.1:3000/callback';
// The Client ID Metadata Document URL the suite expects (auth/basic-cimd).
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** The user's browser: follows the authorization URL to its redirect and returns the callback URL. */
async function followAuthorizationRedirect({ authorizationUrl }: { authorizationUrl: URL }): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel().catch(() => {});
  const location = response.headers.get('location');
  if (location === null) {
    throw new Error(`the authorization endpoint answered HTTP ${response.status} without a redirect`);
  }
  return new URL(location, authorizationUrl);
}

function provider(extra: Partial<OAuthClientProvider> = {}): OAuthClientProvider {
  return {
    redirectUrl: REDIRECT_URL,
    clientMetadata: { client_name: 'mcpkit-everything-client' },
    clientMetadataUrl: CLIENT_METADATA_URL,
    redirectToAuthorization: followAuthorizationRedirect,
    ...extra,
  };
}

/** Connects through OAuth, lists the tools and calls the first one (the suite's `test-tool`). */
function authorizedSession(url: URL, oauthProvider: OAuthClientProvider): Promise<void> {
  const oauth = new OAuthClient({ provider: oauthProvider, serverUrl: url });
  return withClient(
    url,
    async (client) => {
      const { tools } = await client.listTools();
      const tool = tools[0];
      if (tool === undefined) throw new Error('the server lists no tool');
      const result = await client.callTool({ name: tool.name, arguments: {} });
      console.log(JSON.stringify(result.content));
    },
    { fetch: oauth.fetch },
  );
}

const standard: Scenario = (url) => authorizedSession(url, provider());

/** Pre-registered credentials from the scenario context (auth/pre-registration). */
const preRegistered: Scenario = (url) => {
  const context = conformanceContext();
  if (typeof context.client_id !== 'string') throw new Error('MCP_CONFORMANCE_CONTEXT has no client_id');
  return authorizedSession(
    url,
    provider({
      // By function: the context does not name the mock authorization server's issuer (see auth-extension-scenarios).
      clientCredentials: () => ({
        clientId: context.client_id as string,
        ...(typeof context.client_secret === 'string' && { clientSecret: context.client_secret }),
      }),
    }),
  );
};

/** The authorization-code scenarios by name. */
export const authScenarios: Readonly<Record<string, Scenario>> = {
  'auth/metadata-default': standard,
  'auth/metadata-var1': standard,
  'auth/metadata-var2': standard,
  'auth/metadata-var3': standard,
  'auth/basic-cimd': standard,
  'auth/scope-from-www-authenticate': standard,
  'auth/scope-from-scopes-supported': standard,
  'auth/scope-omitted-when-undefined': standard,
  // tools/list needs mcp:basic, tools/call mcp:basic + mcp:write: a 403 insufficient_scope, then a step-up.
  'auth/scope-step-up': standard,
  // Every request answers 403 insufficient_scope: the client gives up after its step-up limit (and fails).
  'auth/scope-retry-limit': standard,
  'auth/token-endpoint-auth-basic': standard,
  'auth/token-endpoint-auth-post': standard,
  'auth/token-endpoint-auth-none': standard,
  'auth/pre-registration': preRegistered,
  // The mock's root metadata names another issuer: the client refuses it (RFC 8414 §3.3) and fails; see README.
  'auth/2025-03-26-oauth-metadata-backcompat': standard,
  'auth/2025-03-26-oauth-endpoint-fallback': standard,
  // The resource metadata names https://evil.example.com/mcp: the client refuses to authorize (and fails).
  'auth/resource-mismatch': standard,
  'auth/offline-access-scope': standard,
  'auth/offline-access-not-supported': standard,
  // The resource metadata names a new authorization server after the first token: the client registers there anew
  // and never shows it the first server's client id (credentials are bound to their issuer).
  'auth/authorization-server-migration': standard,
  // RFC 9207: the authorization response's iss, compared with the issuer of the metadata as the spec's table says.
  'auth/iss-supported': standard,
  'auth/iss-not-advertised': standard,
  // These three send a missing, a foreign or a trailing-slash iss: the client refuses the code (and fails).
  'auth/iss-supported-missing': standard,
  'auth/iss-wrong-issuer': standard,
  'auth/iss-unexpected': standard,
  'auth/iss-normalized': standard,
  // The metadata's issuer is not the one it was fetched for (RFC 8414 §3.3): the client refuses it (and fails).
  'auth/metadata-issuer-mismatch': standard,
  // DPoP-bound tokens (RFC 9449), with and without the servers' nonces.
  'auth/dpop': (url) => authorizedSession(url, provider({ dpop: true })),
  'auth/dpop-nonce': (url) => authorizedSession(url, provider({ dpop: true })),
};
