// The MCP server's resource identifier (RFC 8707 §2, RFC 9728 §1.2): an absolute URL without fragment. The spec's
// canonical form also drops the query and lower-cases scheme and host (URL does the latter).

/**
 * The canonical resource identifier of an MCP server URL: no fragment, no query.
 *
 * @example
 * ```ts
 * canonicalResource('https://MCP.example.com/mcp#x').href; // 'https://mcp.example.com/mcp'
 * ```
 */
export function canonicalResource(url: string | URL): URL {
  const resource = new URL(url);
  resource.hash = '';
  resource.search = '';
  return resource;
}

/**
 * The identifier as a string, as sent in `resource=` and used as a store key: canonical, without a trailing `/` (so
 * `https://mcp.example.com/` and `https://mcp.example.com` name one resource).
 *
 * @example
 * ```ts
 * resourceKey('https://mcp.example.com/?x=1'); // 'https://mcp.example.com'
 * ```
 */
export function resourceKey(url: string | URL): string {
  const href = canonicalResource(url).href;
  return href.endsWith('/') ? href.slice(0, -1) : href;
}

/**
 * Whether protected resource metadata that says `resource` may speak for `serverUrl`: the same origin, and the same
 * path or a parent path at a segment boundary (a resource `https://a.example` covers `https://a.example/mcp`; RFC 9728
 * §3.3 makes a document fetched from the root well-known URL name the origin).
 */
export function resourceCovers(resource: string, serverUrl: URL): boolean {
  let declared: URL;
  try {
    declared = new URL(resource);
  } catch {
    return false;
  }
  if (declared.hash !== '' || declared.origin !== serverUrl.origin) return false;
  const parent = declared.pathname.endsWith('/') ? declared.pathname : `${declared.pathname}/`;
  const path = serverUrl.pathname.endsWith('/') ? serverUrl.pathname : `${serverUrl.pathname}/`;
  return path.startsWith(parent);
}

/**
 * Where RFC 9728 §3.1 puts the metadata of `serverUrl`: the path-aware well-known URL first (when the URL has a
 * path), then the root one.
 */
export function protectedResourceMetadataUrls(serverUrl: URL): URL[] {
  const urls: URL[] = [];
  const path = serverUrl.pathname.replace(/\/$/, '');
  if (path !== '') urls.push(new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl.origin));
  urls.push(new URL('/.well-known/oauth-protected-resource', serverUrl.origin));
  return urls;
}

/**
 * Where RFC 8414 §3.1 and OpenID Connect Discovery put the metadata of `issuer`, in the order the MCP spec lists:
 * with a path, OAuth with path insertion, OpenID with path insertion, OpenID with the path appended; without a
 * path, OAuth then OpenID at the root.
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  if (path === '') {
    return [
      new URL('/.well-known/oauth-authorization-server', issuer.origin),
      new URL('/.well-known/openid-configuration', issuer.origin),
    ];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}
