import { describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  authorizationServerMetadataUrls,
  discover,
  protectedResourceMetadataUrls,
  resourceCovers,
} from '../../src/client/index';
import { FakeOAuthWorld } from './fake-oauth-world';

function paths(world: FakeOAuthWorld): string[] {
  return world.requests.map((request) => request.url);
}

describe('discovery: well-known URL lists', () => {
  it('lists the PRM path-aware URL before the root one', () => {
    expect(protectedResourceMetadataUrls(new URL('https://mcp.example.com/v1/mcp/')).map(String)).toEqual([
      'https://mcp.example.com/.well-known/oauth-protected-resource/v1/mcp',
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
    expect(protectedResourceMetadataUrls(new URL('https://mcp.example.com/')).map(String)).toEqual([
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
  });

  it('lists the authorization server URLs in the order of the MCP spec', () => {
    expect(authorizationServerMetadataUrls(new URL('https://auth.example.com/tenant1')).map(String)).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
    expect(authorizationServerMetadataUrls(new URL('https://auth.example.com')).map(String)).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });

  it('lets a resource cover itself and the paths below it on the same origin only', () => {
    const server = new URL('https://mcp.example.com/mcp');
    expect(resourceCovers('https://mcp.example.com/mcp', server)).toBe(true);
    expect(resourceCovers('https://mcp.example.com', server)).toBe(true);
    expect(resourceCovers('https://mcp.example.com/mc', server)).toBe(false);
    expect(resourceCovers('https://mcp.example.com/mcp/other', server)).toBe(false);
    expect(resourceCovers('https://evil.example.com/mcp', server)).toBe(false);
    expect(resourceCovers('http://mcp.example.com/mcp', server)).toBe(false);
    expect(resourceCovers('not a url', server)).toBe(false);
  });
});

describe('discover()', () => {
  it('uses the WWW-Authenticate resource_metadata URL first', async () => {
    const world = new FakeOAuthWorld({ prmAt: 'root' });
    const found = await discover(world.serverUrl, { fetch: world.fetch, resourceMetadataUrl: world.prmUrl });
    expect(paths(world)).toEqual([
      'https://mcp.example.com/.well-known/oauth-protected-resource',
      'https://auth.example.com/.well-known/oauth-authorization-server',
    ]);
    expect(found.resource).toBe('https://mcp.example.com/mcp');
    expect(found.authorizationServer.token_endpoint).toBe('https://auth.example.com/token');
  });

  it('falls back from the path-aware PRM URL to the root one', async () => {
    const world = new FakeOAuthWorld({ prmAt: 'root', prmResource: 'https://mcp.example.com' });
    const found = await discover(world.serverUrl, { fetch: world.fetch });
    expect(paths(world).slice(0, 2)).toEqual([
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
    expect(found.resource).toBe('https://mcp.example.com');
  });

  it('tries every authorization server URL in order and never the root for a path issuer', async () => {
    const world = new FakeOAuthWorld({
      issuer: 'https://auth.example.com/tenant1',
      metadataPath: '/tenant1/.well-known/openid-configuration',
    });
    const found = await discover(world.serverUrl, { fetch: world.fetch });
    expect(paths(world).slice(1)).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
    expect(found.authorizationServer.issuer).toBe('https://auth.example.com/tenant1');
  });

  it('refuses metadata whose issuer is not the one it was fetched for (RFC 8414 §3.3)', async () => {
    const world = new FakeOAuthWorld({ metadata: { issuer: 'https://impostor.example.com' } });
    const failure = await discover(world.serverUrl, { fetch: world.fetch }).catch((error: unknown) => error);
    expect(AuthorizationError.is(failure) && failure.code).toBe('ERR_ISSUER_MISMATCH');
    expect((failure as AuthorizationError).data).toMatchObject({
      issuer: 'https://impostor.example.com',
      expectedIssuer: 'https://auth.example.com',
    });
  });

  it('fails with ERR_DISCOVERY_FAILED, listing every URL tried, when the authorization server has no metadata', async () => {
    const world = new FakeOAuthWorld({ metadataPath: null });
    const failure = await discover(world.serverUrl, { fetch: world.fetch }).catch((error: unknown) => error);
    expect(AuthorizationError.is(failure) && failure.code).toBe('ERR_DISCOVERY_FAILED');
    expect((failure as AuthorizationError).message).toContain('/.well-known/openid-configuration: HTTP 404');
  });

  it('2025-03-26: without resource metadata, reads the metadata at the MCP server origin', async () => {
    const world = new FakeOAuthWorld({ prmAt: 'none', issuer: 'https://mcp.example.com' });
    const found = await discover(world.serverUrl, { fetch: world.fetch });
    expect(found.resourceMetadata).toBeUndefined();
    expect(found.defaultEndpoints).toBe(false);
    expect(found.resource).toBe('https://mcp.example.com/mcp');
    expect(paths(world).at(-1)).toBe('https://mcp.example.com/.well-known/oauth-authorization-server');
  });

  it('2025-03-26: refuses root metadata that names another issuer (the conformance backcompat mock)', async () => {
    const world = new FakeOAuthWorld({
      prmAt: 'none',
      issuer: 'https://mcp.example.com/oauth',
      metadataPath: '/.well-known/oauth-authorization-server',
    });
    const failure = await discover(world.serverUrl, { fetch: world.fetch }).catch((error: unknown) => error);
    expect(AuthorizationError.is(failure) && failure.code).toBe('ERR_ISSUER_MISMATCH');
  });

  it('2025-03-26: without any metadata, uses /authorize /token /register at the origin', async () => {
    const world = new FakeOAuthWorld({ prmAt: 'none', metadataPath: null });
    const found = await discover(world.serverUrl, { fetch: world.fetch });
    expect(found.defaultEndpoints).toBe(true);
    expect(found.authorizationServer).toMatchObject({
      issuer: 'https://mcp.example.com',
      authorization_endpoint: 'https://mcp.example.com/authorize',
      token_endpoint: 'https://mcp.example.com/token',
      registration_endpoint: 'https://mcp.example.com/register',
    });
  });
});

describe('discover(): an unavailable server is not a 2025-03-26 server', () => {
  it('fails instead of falling back when a metadata URL answers 5xx or the network fails', async () => {
    const world = new FakeOAuthWorld({ prmAt: 'none', metadataPath: null });
    const flaky: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === '/.well-known/oauth-protected-resource') return new Response('down', { status: 503 });
      return world.fetch(input, init);
    };
    const failure = await discover(world.serverUrl, { fetch: flaky }).catch((error: unknown) => error);
    expect(AuthorizationError.is(failure) && failure.code).toBe('ERR_DISCOVERY_FAILED');
    expect((failure as AuthorizationError).message).toContain('HTTP 503');

    const offline: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === '/.well-known/openid-configuration') throw new TypeError('fetch failed');
      return world.fetch(input, init);
    };
    const second = await discover(world.serverUrl, { fetch: offline }).catch((error: unknown) => error);
    expect(AuthorizationError.is(second) && second.code).toBe('ERR_DISCOVERY_FAILED');
  });
});
