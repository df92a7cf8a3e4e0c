import { Client } from '@mcpkit/client';
import { OAuthClient, type OAuthClientProvider } from '@mcpkit/client/auth';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';

// The client `auth/*` scenarios of the conformance suite (0.1.16): each runs an MCP session through an `OAuthClient`
// whose provider plays the user. The suite's authorization endpoint redirects at once, so "sending the user" is a
// GET with `redirect: 'manual'` whose `Location` is the callback URL (code and state included).

/** One scenario: drives a client against `url`. */
type Scenario = (url: URL) => Promise<void>;

const clientInfo = { name: 'mcpkit-everything-client', version: '1.0.0' };
// Never contacted: the callback URL is read from the authorization endpoint's redirect.
const REDIRECT_URL = 'http://127.0.0.1:3000/callback';
// The Client ID Metadata Document URL the suite expects (auth/basic-cimd).
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** The scenario's context (`MCP_CONFORMANCE_CONTEXT`): pre-registered credentials and the like. */
export function conformanceContext(): Record<string, unknown> {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw === undefined || raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
}

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
async function authorizedSession(url: URL, oauthProvider: OAuthClientProvider): Promise<void> {
  const oauth = new OAuthClient({ provider: oauthProvider, serverUrl: url });
  const client = new Client(clientInfo);
  await client.connect(new StreamableHttpClientTransport(url, { fetch: oauth.fetch }));
  try {
    const { tools } = await client.listTools();
    const tool = tools[0];
    if (tool === undefined) throw new Error('the server lists no tool');
    const result = await client.callTool({ name: tool.name, arguments: {} });
    console.log(JSON.stringify(result.content));
  } finally {
    await client.close();
  }
}

const standard: Scenario = (url) => authorizedSession(url, provider());

/** Pre-registered credentials from the scenario context (auth/pre-registration). */
const preRegistered: Scenario = (url) => {
  const context = conformanceContext();
  if (typeof context.client_id !== 'string') throw new Error('MCP_CONFORMANCE_CONTEXT has no client_id');
  return authorizedSession(
    url,
    provider({
      clientCredentials: {
        clientId: context.client_id,
        ...(typeof context.client_secret === 'string' && { clientSecret: context.client_secret }),
      },
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
};
