import { AuthorizationError } from './authorization-error';
import { fetchMetadata, type MetadataAttempt } from './metadata-fetch';
import {
  authorizationServerMetadataUrls,
  protectedResourceMetadataUrls,
  resourceCovers,
  resourceKey,
} from './resource-url';
import type { AuthorizationServerMetadata, ProtectedResourceMetadata } from './types';

// Discovery, newest revision first: RFC 9728 protected resource metadata names the authorization server, whose
// RFC 8414 / OpenID metadata gives the endpoints. A server without resource metadata is a 2025-03-26 server: its
// authorization server lives at its origin, and without metadata there, at the default endpoints.

/** What discovery found for one MCP server. */
export interface DiscoveryResult {
  /** The RFC 8707 `resource` to ask tokens for. */
  resource: string;
  /** The protected resource metadata, absent for a 2025-03-26 server. */
  resourceMetadata?: ProtectedResourceMetadata;
  authorizationServer: AuthorizationServerMetadata;
  /** True when no metadata document was found and the 2025-03-26 default endpoints are used. */
  defaultEndpoints: boolean;
}

interface DiscoveryOptions {
  fetch: typeof fetch;
  signal?: AbortSignal;
  /** The `resource_metadata` URL from the server's `WWW-Authenticate`, tried first. */
  resourceMetadataUrl?: string;
  /** Picks one of the PRM's authorization servers (default: the first). */
  selectAuthorizationServer?: (issuers: readonly string[]) => string;
}

function describe(attempts: readonly MetadataAttempt[]): string {
  return attempts.map((attempt) => `${attempt.url}: ${'problem' in attempt ? attempt.problem : 'ok'}`).join('; ');
}

/**
 * Only "not there" (a 4xx) means a document does not exist. A server error or a network failure says nothing, and
 * must not turn a current server into a 2025-03-26 one (or send the user to guessed default endpoints).
 */
function failIfUnavailable(attempts: readonly MetadataAttempt[], what: string): void {
  const unavailable = attempts.filter(
    (attempt) => attempt.document === undefined && (attempt.status === undefined || attempt.status >= 500),
  );
  if (unavailable.length === 0) return;
  throw new AuthorizationError(
    'ERR_DISCOVERY_FAILED',
    `Could not fetch the ${what} (${describe(unavailable)}); try again when the server is reachable`,
    { attempts },
  );
}

/**
 * Fetches the protected resource metadata of `serverUrl` (the `WWW-Authenticate` URL, else the path-aware then root
 * well-known URLs) and checks that it speaks for `serverUrl`. Undefined when no document exists.
 *
 * @example
 * ```ts
 * const prm = await discoverResourceMetadata(new URL('https://mcp.example.com/mcp'), { fetch });
 * prm?.authorization_servers; // ['https://auth.example.com']
 * ```
 */
export async function discoverResourceMetadata(
  serverUrl: URL,
  options: DiscoveryOptions,
): Promise<ProtectedResourceMetadata | undefined> {
  const candidates = protectedResourceMetadataUrls(serverUrl);
  if (options.resourceMetadataUrl !== undefined) {
    let fromHeader: URL | undefined;
    try {
      fromHeader = new URL(options.resourceMetadataUrl, serverUrl);
    } catch {
      // An unparsable header URL is ignored: the well-known URLs still apply.
    }
    if (fromHeader !== undefined && (fromHeader.protocol === 'https:' || fromHeader.protocol === 'http:')) {
      candidates.unshift(fromHeader);
    }
  }
  const attempts: MetadataAttempt[] = [];
  for (const url of candidates) {
    const attempt = await fetchMetadata(url, options.fetch, options.signal);
    attempts.push(attempt);
    if (attempt.document === undefined) continue;
    const resource = attempt.document.resource;
    if (typeof resource !== 'string' || !resourceCovers(resource, serverUrl)) {
      throw new AuthorizationError(
        'ERR_RESOURCE_MISMATCH',
        `The protected resource metadata at ${attempt.url} is for ${JSON.stringify(resource)}, not for ${serverUrl.href}: ` +
          'refusing to authorize (a token for another resource must not be requested on its behalf)',
        { metadataUrl: attempt.url, resource, serverUrl: serverUrl.href },
      );
    }
    return attempt.document as ProtectedResourceMetadata;
  }
  failIfUnavailable(attempts, `protected resource metadata of ${serverUrl.href}`);
  return undefined;
}

function checkIssuer(document: Record<string, unknown>, expected: readonly string[], url: string): void {
  if (typeof document.issuer !== 'string' || !expected.includes(document.issuer)) {
    throw new AuthorizationError(
      'ERR_ISSUER_MISMATCH',
      `The authorization server metadata at ${url} says issuer ${JSON.stringify(document.issuer)}, but it was fetched ` +
        `for ${expected[0]}; RFC 8414 §3.3 forbids using it (fix the server's issuer or its metadata location)`,
      { metadataUrl: url, issuer: document.issuer, expectedIssuer: expected[0] },
    );
  }
}

function checkEndpoints(document: Record<string, unknown>, url: string): AuthorizationServerMetadata {
  if (typeof document.token_endpoint !== 'string') {
    throw new AuthorizationError(
      'ERR_DISCOVERY_FAILED',
      `The authorization server metadata at ${url} has no token_endpoint`,
      { metadataUrl: url, metadata: document },
    );
  }
  return document as AuthorizationServerMetadata;
}

/**
 * Fetches the metadata of the authorization server `issuer`, trying every URL the MCP spec lists in order, and checks
 * its `issuer` (RFC 8414 §3.3). Undefined when none of the URLs has a document.
 *
 * @example
 * ```ts
 * const as = await discoverAuthorizationServerMetadata('https://auth.example.com/tenant1', { fetch });
 * as?.token_endpoint;
 * ```
 */
export async function discoverAuthorizationServerMetadata(
  issuer: string,
  options: { fetch: typeof fetch; signal?: AbortSignal; acceptIssuers?: readonly string[] },
): Promise<{ metadata?: AuthorizationServerMetadata; attempts: MetadataAttempt[] }> {
  const attempts: MetadataAttempt[] = [];
  let mismatch: AuthorizationError | undefined;
  for (const url of authorizationServerMetadataUrls(new URL(issuer))) {
    const attempt = await fetchMetadata(url, options.fetch, options.signal);
    attempts.push(attempt);
    if (attempt.document === undefined) continue;
    try {
      checkIssuer(attempt.document, options.acceptIssuers ?? [issuer], attempt.url);
    } catch (error) {
      // A document for another issuer is not used; a later URL may still hold the right one.
      mismatch ??= error as AuthorizationError;
      continue;
    }
    return { metadata: checkEndpoints(attempt.document, attempt.url), attempts };
  }
  if (mismatch !== undefined) throw mismatch;
  return { attempts };
}

/** The 2025-03-26 default endpoints at the authorization base URL (the MCP server's origin). */
function defaultEndpoints(origin: string): AuthorizationServerMetadata {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
  };
}

/**
 * Runs the whole discovery for `serverUrl`: resource metadata, then the authorization server's metadata; for a server
 * without resource metadata, the 2025-03-26 rules (metadata at the server's origin, else the default endpoints).
 *
 * @example
 * ```ts
 * const found = await discover(new URL('https://mcp.example.com/mcp'), { fetch, resourceMetadataUrl });
 * found.authorizationServer.authorization_endpoint;
 * ```
 */
export async function discover(serverUrl: URL, options: DiscoveryOptions): Promise<DiscoveryResult> {
  const resourceMetadata = await discoverResourceMetadata(serverUrl, options);
  if (resourceMetadata !== undefined) {
    const issuers = resourceMetadata.authorization_servers ?? [];
    if (issuers.length === 0) {
      throw new AuthorizationError(
        'ERR_DISCOVERY_FAILED',
        `The protected resource metadata of ${serverUrl.href} lists no authorization_servers`,
        { serverUrl: serverUrl.href, resourceMetadata },
      );
    }
    const issuer = options.selectAuthorizationServer?.(issuers) ?? issuers[0]!;
    const { metadata, attempts } = await discoverAuthorizationServerMetadata(issuer, options);
    if (metadata === undefined) {
      throw new AuthorizationError(
        'ERR_DISCOVERY_FAILED',
        `No metadata for the authorization server ${issuer} (tried ${describe(attempts)})`,
        { issuer, attempts },
      );
    }
    return {
      // As the resource declares itself (checked above: same origin, no fragment): the identifier the AS knows.
      resource: resourceMetadata.resource,
      resourceMetadata,
      authorizationServer: metadata,
      defaultEndpoints: false,
    };
  }
  // 2025-03-26: the authorization base URL is the server URL without its path. Its metadata may name the origin
  // with or without a trailing slash; both are that issuer.
  const origin = serverUrl.origin;
  const { metadata, attempts } = await discoverAuthorizationServerMetadata(origin, {
    ...options,
    acceptIssuers: [origin, `${origin}/`],
  });
  if (metadata === undefined) failIfUnavailable(attempts, `authorization server metadata at ${origin}`);
  return {
    resource: resourceKey(serverUrl),
    authorizationServer: metadata ?? defaultEndpoints(origin),
    defaultEndpoints: metadata === undefined,
  };
}
