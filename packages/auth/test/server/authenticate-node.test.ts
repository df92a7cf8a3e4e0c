// authenticateNode: the bearer check for a Node request (an HTTP request or a WebSocket upgrade) without a Request.
import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import {
  type AuthRefusal,
  createBearerAuth,
  readNodeBearerToken,
  type TokenVerifyContext,
} from '../../src/server/index';
import { RESOURCE } from './fixtures/issuer';

function setup() {
  const contexts: TokenVerifyContext[] = [];
  const bearer = createBearerAuth({
    resource: RESOURCE,
    requiredScopes: ['mcp:tools'],
    verifier: {
      async verify(token, context) {
        contexts.push(context);
        return { token, subject: 'alice', scopes: token === 'narrow' ? [] : ['mcp:tools'] };
      },
    },
  });
  return { bearer, contexts };
}

const isRefusal = (value: AuthInfo | AuthRefusal): value is AuthRefusal => 'status' in value;

describe('authenticateNode', () => {
  it('accepts a good token from headers as Node gives them, calling the verifier without a Request', async () => {
    const { bearer, contexts } = setup();
    const auth = await bearer.authenticateNode({ headers: { authorization: 'Bearer good' }, url: '/mcp' });
    expect(auth).toEqual({ token: 'good', subject: 'alice', scopes: ['mcp:tools'] });
    expect(contexts).toEqual([{ resource: RESOURCE }]);
  });

  it('answers with the same refusals as authenticate, as plain data', async () => {
    const { bearer } = setup();
    const missing = await bearer.authenticateNode({ headers: {}, url: '/mcp' });
    expect(missing).toEqual({
      status: 401,
      headers: {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        'www-authenticate':
          'Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"',
      },
      body: JSON.stringify({
        error: 'unauthorized',
        error_description: 'This MCP server needs an OAuth access token (Authorization: Bearer)',
      }),
    });
    const fromRequest = await bearer.authenticate(new Request(RESOURCE));
    expect(fromRequest).toBeInstanceOf(Response);
    expect((fromRequest as Response).headers.get('www-authenticate')).toBe(
      (missing as AuthRefusal).headers['www-authenticate'],
    );
    const narrow = await bearer.authenticateNode({ headers: { authorization: 'Bearer narrow' } });
    expect(isRefusal(narrow) && narrow.status).toBe(403);
  });

  it('refuses a token in the query string and a second Authorization header with 400', async () => {
    const { bearer, contexts } = setup();
    const inQuery = await bearer.authenticateNode({
      headers: { authorization: 'Bearer good' },
      url: '/mcp?x=1&access_token=good',
    });
    expect(isRefusal(inQuery) && inQuery.status).toBe(400);
    // Node keeps the first of two Authorization headers in `headers`; `headersDistinct` shows both.
    const twice = await bearer.authenticateNode({
      headers: { authorization: 'Bearer good' },
      headersDistinct: { authorization: ['Bearer good', 'Bearer other'] },
    });
    expect(isRefusal(twice) && twice.status).toBe(400);
    expect(isRefusal(twice) && JSON.parse(twice.body).error).toBe('invalid_request');
    expect(contexts).toEqual([]);
  });

  it('reads the token like readBearerToken: scheme case-insensitive, another scheme is no token', () => {
    expect(readNodeBearerToken({ headers: { authorization: 'bearer abc.def' } })).toEqual({
      kind: 'token',
      token: 'abc.def',
    });
    expect(readNodeBearerToken({ headers: { authorization: 'Basic dXNlcjpwYXNz' } })).toEqual({ kind: 'missing' });
    expect(readNodeBearerToken({ headers: { authorization: ['Bearer a', 'Bearer b'] } })).toMatchObject({
      kind: 'malformed',
    });
    expect(readNodeBearerToken({ headers: { authorization: ['Bearer a'] } })).toEqual({ kind: 'token', token: 'a' });
    expect(readNodeBearerToken({ headers: { authorization: 'Bearer two tokens' } })).toMatchObject({
      kind: 'malformed',
    });
  });
});
