import {
  type ClientCredentials,
  clientCredentialsGrant,
  createOAuthFetch,
  crossAppAccessGrant,
  type NonInteractiveGrant,
  workloadIdentityGrant,
} from '@mcpkit/auth/client';
import { contextString, withClient } from './connection';

// The conformance suite's extension authorization scenarios: grants with no user at a browser. The suite hands the
// client its credentials in MCP_CONFORMANCE_CONTEXT (JSON); the client then meets a 401, discovers the authorization
// server and obtains a token with the grant, as any MCP client configured this way would.

/** Connects through the OAuth fetch (401 → discovery → `grant` → retry), lists the tools and calls the first one. */
function connectWithGrant(url: URL, clientCredentials: ClientCredentials, grant: NonInteractiveGrant) {
  // The context does not name the mock authorization server's issuer (a random port), so the credentials are handed
  // over by function: the app's explicit "send these to the issuer this server names". A real app sets
  // `clientCredentials.issuer` instead; a value with a secret and no issuer is refused (ERR_CREDENTIALS_WITHOUT_ISSUER).
  const credentialsFor = () => clientCredentials;
  const fetch = createOAuthFetch({ serverUrl: url, provider: { clientCredentials: credentialsFor, grant } });
  return withClient(
    url,
    async (client) => {
      const { tools } = await client.listTools();
      const tool = tools[0];
      if (tool !== undefined) await client.callTool({ name: tool.name, arguments: {} });
    },
    { fetch },
  );
}

/**
 * SEP-990: the ID token from the enterprise IdP is exchanged there for an ID-JAG, which the MCP authorization server
 * takes in a JWT bearer grant (client_secret_basic with the client's credentials there).
 */
function enterpriseManaged(url: URL): Promise<void> {
  const idToken = contextString('idp_id_token');
  return connectWithGrant(
    url,
    { clientId: contextString('client_id'), clientSecret: contextString('client_secret') },
    crossAppAccessGrant({
      identityProvider: {
        tokenEndpoint: contextString('idp_token_endpoint'),
        issuer: contextString('idp_issuer'),
        credentials: { clientId: contextString('idp_client_id') },
      },
      subjectToken: () => idToken,
    }),
  );
}

/** The extension scenarios by name (`auth/...`), for the everything-client's scenario table. */
export const authExtensionScenarios: Readonly<Record<string, (url: URL) => Promise<void>>> = {
  // client_credentials, authenticated with client_secret_basic (the only method the mock advertises).
  'auth/client-credentials-basic': (url) =>
    connectWithGrant(
      url,
      { clientId: contextString('client_id'), clientSecret: contextString('client_secret') },
      clientCredentialsGrant(),
    ),

  // client_credentials, authenticated with private_key_jwt: a PEM PKCS#8 key and its algorithm (ES256).
  'auth/client-credentials-jwt': (url) => {
    let signingAlgorithm: string | undefined;
    try {
      signingAlgorithm = contextString('signing_algorithm');
    } catch {
      // Optional: the key's own algorithm is used without it.
    }
    return connectWithGrant(
      url,
      {
        clientId: contextString('client_id'),
        privateKey: contextString('private_key_pem'),
        ...(signingAlgorithm !== undefined && { signingAlgorithm }),
      },
      clientCredentialsGrant(),
    );
  },

  // SEP-990 under its 0.1.16 name and its current one.
  'auth/cross-app-access-complete-flow': enterpriseManaged,
  'auth/enterprise-managed-authorization': enterpriseManaged,

  // SEP-1933: the platform-issued JWT (valid_jwt; the context also carries an expired and a wrong-audience one for
  // clients that test their error paths) as a jwt-bearer assertion; a public client (auth method none).
  'auth/wif-jwt-bearer': (url) => {
    const workloadJwt = contextString('valid_jwt');
    return connectWithGrant(
      url,
      { clientId: contextString('client_id') },
      workloadIdentityGrant({ assertion: () => workloadJwt }),
    );
  },
};
