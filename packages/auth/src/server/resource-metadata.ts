import type { ProtectedResourceMetadata } from '@mcpkit/protocol';
import { AuthConfigError } from './errors';

export type { ProtectedResourceMetadata };

/** Options for {@link createProtectedResourceMetadataHandler}. */
export interface ProtectedResourceMetadataOptions {
  /** The canonical URL of the MCP server (what clients connect to and put in `resource`), e.g. `https://mcp.example.com/mcp`. */
  resource: string | URL;
  /** Issuer identifiers of the authorization servers that issue tokens for it. At least one. */
  authorizationServers: readonly string[];
  /** Scopes clients may request; clients fall back to these when a challenge names none. */
  scopesSupported?: readonly string[];
  /** How tokens may be sent. Default `['header']` (MCP allows nothing else). */
  bearerMethodsSupported?: readonly string[];
  /** A name people see when they are asked to authorize. */
  resourceName?: string;
  /** `resource_documentation`: a page about the resource for developers. */
  resourceDocumentation?: string;
  /** `resource_policy_uri`: how the resource uses the data it receives. */
  resourcePolicyUri?: string;
  /** `resource_tos_uri`: its terms of service. */
  resourceTosUri?: string;
  /** `jwks_uri`: the resource's own public keys (for signed responses), not the authorization server's. */
  jwksUri?: string;
  /** `resource_signing_alg_values_supported`: JWS algorithms the resource signs with. */
  resourceSigningAlgValuesSupported?: readonly string[];
  /** Any other RFC 9728 (or extension) field, copied as is (`dpop_bound_access_tokens_required`, …). */
  extra?: Readonly<Record<string, unknown>>;
  /** Also serve the document at `/.well-known/oauth-protected-resource` (no path). Default true. */
  serveRootPath?: boolean;
  /** `Cache-Control: max-age` in seconds. Default 3600. */
  maxAgeSeconds?: number;
}

/** The Request→Response handler of the metadata endpoint. */
export interface ProtectedResourceMetadataHandler {
  /** The document it serves. */
  readonly metadata: Readonly<ProtectedResourceMetadata>;
  /** The URL to advertise in `WWW-Authenticate: Bearer resource_metadata="…"` (the path-inserted form). */
  readonly url: string;
  /** The paths it answers on. */
  readonly paths: readonly string[];
  /** Whether a request is for this endpoint (its path is one of `paths`). */
  matches(request: Request): boolean;
  /** Answers GET/HEAD with the document, OPTIONS with a CORS preflight, other methods 405, other paths 404. */
  handle(request: Request): Promise<Response>;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Checks a resource identifier: absolute, https (http only on a loopback host, for development), no fragment.
 * Returns it parsed.
 */
export function parseResourceUrl(resource: string | URL, option = 'resource'): URL {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new AuthConfigError(
      `\`${option}\` must be the absolute URL of the MCP server (https://…/mcp), got "${String(resource)}"`,
      { option, value: resource },
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new AuthConfigError(`\`${option}\` must use https (http only on localhost), got "${url.href}"`, {
      option,
      value: resource,
    });
  }
  if (url.hash !== '') {
    throw new AuthConfigError(`\`${option}\` must not have a fragment, got "${url.href}"`, { option, value: resource });
  }
  return url;
}

/**
 * The URL of a resource's metadata document (RFC 9728 §3.1): the well-known path inserted between the host and the
 * resource's path. Put it in `WWW-Authenticate` as `resource_metadata`.
 *
 * @example
 * protectedResourceMetadataUrl('https://mcp.example.com/mcp');
 * // 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp'
 */
export function protectedResourceMetadataUrl(resource: string | URL): string {
  const url = parseResourceUrl(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${WELL_KNOWN}${path}${url.search}`;
}

function buildMetadata(options: ProtectedResourceMetadataOptions): ProtectedResourceMetadata {
  if (!Array.isArray(options.authorizationServers) || options.authorizationServers.length === 0) {
    throw new AuthConfigError('`authorizationServers` must list at least one issuer URL', {
      option: 'authorizationServers',
      value: options.authorizationServers,
    });
  }
  const metadata: ProtectedResourceMetadata = {
    ...options.extra,
    resource: String(options.resource),
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: [...(options.bearerMethodsSupported ?? ['header'])],
  };
  if (options.scopesSupported !== undefined) metadata.scopes_supported = [...options.scopesSupported];
  if (options.resourceName !== undefined) metadata.resource_name = options.resourceName;
  if (options.resourceDocumentation !== undefined) metadata.resource_documentation = options.resourceDocumentation;
  if (options.resourcePolicyUri !== undefined) metadata.resource_policy_uri = options.resourcePolicyUri;
  if (options.resourceTosUri !== undefined) metadata.resource_tos_uri = options.resourceTosUri;
  if (options.jwksUri !== undefined) metadata.jwks_uri = options.jwksUri;
  if (options.resourceSigningAlgValuesSupported !== undefined) {
    metadata.resource_signing_alg_values_supported = [...options.resourceSigningAlgValuesSupported];
  }
  return metadata;
}

/**
 * The protected resource metadata endpoint (RFC 9728) of an MCP server, built from options: it serves the document at
 * the path-inserted well-known URL (`/.well-known/oauth-protected-resource/mcp` for `https://host/mcp`) and at the
 * root well-known path, with CORS open to any origin so browser clients can discover it.
 *
 * @example
 * const metadata = createProtectedResourceMetadataHandler({
 *   resource: 'https://mcp.example.com/mcp',
 *   authorizationServers: ['https://auth.example.com'],
 *   scopesSupported: ['mcp:tools', 'files:write'],
 *   resourceName: 'Example files',
 * });
 * // Fetch style: (request) => metadata.matches(request) ? metadata.handle(request) : mcp.handle(request)
 */
export function createProtectedResourceMetadataHandler(
  options: ProtectedResourceMetadataOptions,
): ProtectedResourceMetadataHandler {
  const resource = parseResourceUrl(options.resource);
  const metadata = buildMetadata(options);
  const insertedPath = `${WELL_KNOWN}${resource.pathname === '/' ? '' : resource.pathname}`;
  const paths = options.serveRootPath === false ? [insertedPath] : [...new Set([insertedPath, WELL_KNOWN])];
  const body = JSON.stringify(metadata);
  const maxAge = options.maxAgeSeconds ?? 3600;
  const cors = { 'access-control-allow-origin': '*' };
  const documentHeaders = {
    ...cors,
    'content-type': 'application/json',
    'cache-control': `public, max-age=${maxAge}`,
  };
  const matches = (request: Request): boolean => paths.includes(new URL(request.url).pathname);

  return {
    metadata,
    url: `${resource.origin}${insertedPath}${resource.search}`,
    paths,
    matches,
    async handle(request: Request): Promise<Response> {
      if (!matches(request)) return new Response(null, { status: 404, headers: cors });
      switch (request.method) {
        case 'GET':
          return new Response(body, { status: 200, headers: documentHeaders });
        case 'HEAD':
          return new Response(null, { status: 200, headers: documentHeaders });
        case 'OPTIONS':
          return new Response(null, {
            status: 204,
            headers: {
              ...cors,
              'access-control-allow-methods': 'GET, HEAD, OPTIONS',
              // A public document: any request header a discovery client sends (MCP-Protocol-Version) is fine.
              'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? '',
              'access-control-max-age': '86400',
            },
          });
        default:
          return new Response(null, { status: 405, headers: { ...cors, allow: 'GET, HEAD, OPTIONS' } });
      }
    },
  };
}
