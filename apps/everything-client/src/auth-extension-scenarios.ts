import { Client } from '@mcpkit/client';
import {
  type ClientCredentials,
  clientCredentialsGrant,
  createOAuthFetch,
  crossAppAccessGrant,
  type NonInteractiveGrant,
} from '@mcpkit/client/auth';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';

// The conformance suite's extension authorization scenarios (`--spec-version extension`): grants with no user at a
// browser. The suite hands the client its credentials in MCP_CONFORMANCE_CONTEXT (JSON); the client then meets a 401,
// discovers the authorization server and obtains a token with the grant, as any MCP client configured this way would.

const clientInfo = { name: 'mcpkit-everything-client', version: '1.0.0' };

/** The fields the extension scenarios put in MCP_CONFORMANCE_CONTEXT. */
interface ConformanceContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_issuer?: string;
  idp_token_endpoint?: string;
}

function readContext(): ConformanceContext {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (raw === undefined) throw new Error('MCP_CONFORMANCE_CONTEXT is not set: the conformance suite passes it');
  return JSON.parse(raw) as ConformanceContext;
}

function required(context: ConformanceContext, field: keyof ConformanceContext): string {
  const value = context[field];
  if (value === undefined) throw new Error(`MCP_CONFORMANCE_CONTEXT has no ${field}`);
  return value;
}

/** Connects through the OAuth fetch (401 → discovery → `grant` → retry), lists the tools and calls the first one. */
async function connectWithGrant(url: URL, clientCredentials: ClientCredentials, grant: NonInteractiveGrant) {
  const fetch = createOAuthFetch({ serverUrl: url, provider: { clientCredentials, grant } });
  const client = new Client(clientInfo);
  await client.connect(new StreamableHttpClientTransport(url, { fetch }));
  try {
    const { tools } = await client.listTools();
    const tool = tools[0];
    if (tool !== undefined) await client.callTool({ name: tool.name, arguments: {} });
  } finally {
    await client.close();
  }
}

/** The extension scenarios by name (`auth/...`), for the everything-client's scenario table. */
export const authExtensionScenarios: Readonly<Record<string, (url: URL) => Promise<void>>> = {
  // client_credentials, authenticated with client_secret_basic (the only method the mock advertises).
  'auth/client-credentials-basic': (url) => {
    const context = readContext();
    return connectWithGrant(
      url,
      { clientId: required(context, 'client_id'), clientSecret: required(context, 'client_secret') },
      clientCredentialsGrant(),
    );
  },

  // client_credentials, authenticated with private_key_jwt: a PEM PKCS#8 key and its algorithm (ES256).
  'auth/client-credentials-jwt': (url) => {
    const context = readContext();
    return connectWithGrant(
      url,
      {
        clientId: required(context, 'client_id'),
        privateKey: required(context, 'private_key_pem'),
        ...(context.signing_algorithm !== undefined && { signingAlgorithm: context.signing_algorithm }),
      },
      clientCredentialsGrant(),
    );
  },

  // SEP-990: the ID token from the enterprise IdP is exchanged there for an ID-JAG, which the MCP authorization
  // server takes in a JWT bearer grant (client_secret_basic with the client's credentials there).
  'auth/cross-app-access-complete-flow': (url) => {
    const context = readContext();
    const idToken = required(context, 'idp_id_token');
    return connectWithGrant(
      url,
      { clientId: required(context, 'client_id'), clientSecret: required(context, 'client_secret') },
      crossAppAccessGrant({
        identityProvider: {
          tokenEndpoint: required(context, 'idp_token_endpoint'),
          ...(context.idp_issuer !== undefined && { issuer: context.idp_issuer }),
          credentials: { clientId: required(context, 'idp_client_id') },
        },
        subjectToken: () => idToken,
      }),
    );
  },
};
