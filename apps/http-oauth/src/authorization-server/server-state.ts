// What the demo authorization server knows: its options, its signing key, its clients, codes and refresh tokens.
import { type CryptoKey, exportJWK, generateKeyPair, type JWK } from 'jose';
import { ExpiringMap } from './expiring-map';

/** A client registered ahead of time (the OAuth proxy's upstream client, say). */
export interface PreRegisteredClient {
  client_id: string;
  /** With a secret the client must authenticate (Basic or form); without, it is public. */
  client_secret?: string;
  redirect_uris: string[];
}

/** Options of {@link createAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /** Its issuer identifier and base URL, e.g. `http://127.0.0.1:3001`. */
  issuer: string;
  /** The MCP server URLs it issues tokens for (RFC 8707 `resource`); the token's `aud` is the one asked for. */
  resources: readonly string[];
  scopesSupported: readonly string[];
  /** Access token lifetime. Default 3 600 s. */
  accessTokenTtlSeconds?: number;
  clients?: readonly PreRegisteredClient[];
  /** The user every authorization is approved for. Default `demo-user`. */
  subject?: string;
  /** Told about each auto-approval, to print the demo's "nobody logged in" note. */
  onApprove?: (note: string) => void;
  /** How Client ID Metadata Documents are fetched (tests give a fake). Default: the global `fetch`. */
  fetchClientMetadata?: typeof fetch;
}

export interface Client {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  client_name?: string;
}

export interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scopes: string[];
  resource: string | undefined;
  nonce: string | undefined;
}

export interface RefreshGrant {
  clientId: string;
  scopes: string[];
  resource: string | undefined;
}

export interface ServerState {
  readonly options: AuthorizationServerOptions;
  readonly subject: string;
  readonly accessTokenTtlSeconds: number;
  readonly key: { privateKey: CryptoKey; publicJwk: JWK };
  readonly clients: ExpiringMap<Client>;
  /** Clients read from Client ID Metadata Documents, by URL, for a few minutes. */
  readonly metadataClients: ExpiringMap<Client>;
  readonly codes: ExpiringMap<IssuedCode>;
  readonly refreshTokens: ExpiringMap<RefreshGrant>;
  /** Grant types seen at the token endpoint, for the tests and the console. */
  readonly tokenRequests: string[];
}

export async function createServerState(options: AuthorizationServerOptions): Promise<ServerState> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'demo-1', alg: 'ES256', use: 'sig' };
  const clients = new ExpiringMap<Client>(30 * 86_400_000, 1_000);
  for (const client of options.clients ?? []) clients.set(client.client_id, { ...client });
  return {
    options,
    subject: options.subject ?? 'demo-user',
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 3_600,
    key: { privateKey, publicJwk },
    clients,
    metadataClients: new ExpiringMap(300_000, 1_000),
    codes: new ExpiringMap(60_000),
    refreshTokens: new ExpiringMap(30 * 86_400_000),
    tokenRequests: [],
  };
}
