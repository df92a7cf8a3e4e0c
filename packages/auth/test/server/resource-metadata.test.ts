import { describe, expect, it } from 'vitest';
import {
  AuthConfigError,
  createProtectedResourceMetadataHandler,
  protectedResourceMetadataUrl,
} from '../../src/server/index';

const options = {
  resource: 'https://mcp.example.com/mcp',
  authorizationServers: ['https://auth.example.com'],
  scopesSupported: ['mcp:tools', 'files:write'],
  resourceName: 'Example files',
  resourceDocumentation: 'https://mcp.example.com/docs',
  extra: { dpop_bound_access_tokens_required: false },
};

describe('protected resource metadata (RFC 9728)', () => {
  const metadata = createProtectedResourceMetadataHandler(options);

  it('serves the document at the path-inserted and the root well-known URLs', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const request = new Request(`https://mcp.example.com${path}`);
      expect(metadata.matches(request)).toBe(true);
      const response = await metadata.handle(request);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({
        resource: 'https://mcp.example.com/mcp',
        authorization_servers: ['https://auth.example.com'],
        scopes_supported: ['mcp:tools', 'files:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'Example files',
        resource_documentation: 'https://mcp.example.com/docs',
        dpop_bound_access_tokens_required: false,
      });
    }
    expect(metadata.url).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
  });

  it('is open to browsers: CORS on GET, and preflights answered', async () => {
    const get = await metadata.handle(
      new Request('https://mcp.example.com/.well-known/oauth-protected-resource/mcp', {
        headers: { origin: 'https://app.example.net' },
      }),
    );
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await metadata.handle(
      new Request('https://mcp.example.com/.well-known/oauth-protected-resource/mcp', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example.net',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'mcp-protocol-version',
        },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('mcp-protocol-version');
  });

  it('answers 405 to other methods and 404 to other paths', async () => {
    const post = await metadata.handle(
      new Request('https://mcp.example.com/.well-known/oauth-protected-resource', { method: 'POST' }),
    );
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('GET');
    const other = new Request('https://mcp.example.com/.well-known/oauth-protected-resource/other');
    expect(metadata.matches(other)).toBe(false);
    expect((await metadata.handle(other)).status).toBe(404);
  });

  it('can leave the root path to another resource on the same origin', () => {
    const only = createProtectedResourceMetadataHandler({ ...options, serveRootPath: false });
    expect(only.paths).toEqual(['/.well-known/oauth-protected-resource/mcp']);
    expect(only.matches(new Request('https://mcp.example.com/.well-known/oauth-protected-resource'))).toBe(false);
  });

  it('computes the WWW-Authenticate URL of a resource', () => {
    expect(protectedResourceMetadataUrl('https://mcp.example.com/mcp')).toBe(
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    );
    expect(protectedResourceMetadataUrl('https://mcp.example.com/')).toBe(
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    );
    expect(protectedResourceMetadataUrl('http://localhost:3000/a/b')).toBe(
      'http://localhost:3000/.well-known/oauth-protected-resource/a/b',
    );
  });

  it('fails at setup on a resource that cannot be right', () => {
    expect(() => createProtectedResourceMetadataHandler({ ...options, resource: '/mcp' })).toThrow(AuthConfigError);
    expect(() => createProtectedResourceMetadataHandler({ ...options, resource: 'http://example.com/mcp' })).toThrow(
      /https/,
    );
    expect(() => createProtectedResourceMetadataHandler({ ...options, resource: 'https://a.example/mcp#x' })).toThrow(
      /fragment/,
    );
    expect(() => createProtectedResourceMetadataHandler({ ...options, authorizationServers: [] })).toThrow(
      /authorizationServers/,
    );
  });
});
