import { describe, expect, it } from 'vitest';
import { AuthorizationError, findAuthorizationError, OAuthError, UnauthorizedError } from '../../src/client/index';

// The brand keys are a contract: another copy of the package, and the root entry's negotiation (which never imports
// /auth), recognise these errors by them.
const foreign = (key: string) => Object.create(Error.prototype, { [Symbol.for(key)]: { value: true } });
// Seen through what the checks use (a union of the classes would not type `is`'s `this`).
type Recogniser = { is(value: unknown): boolean; [Symbol.hasInstance](value: unknown): boolean };

describe('the errors of @mcpkit/client/auth', () => {
  it('recognise instances from another copy by their brand keys', () => {
    for (const [Class, key] of [
      [AuthorizationError, '@mcpkit/client/AuthorizationError'],
      [OAuthError, '@mcpkit/client/OAuthError'],
    ] as [Recogniser, string][]) {
      expect(Class.is(foreign(key))).toBe(true);
      expect(foreign(key) instanceof Class).toBe(true);
      expect(Class.is(foreign('@mcpkit/client/McpClientError'))).toBe(false);
      expect(Class.is(new Error('plain'))).toBe(false);
    }
    expect(AuthorizationError.is(new OAuthError('invalid_grant', 'x', { source: 'authorization-server' }))).toBe(false);
  });

  it('AuthorizationError: code, message, data (default {}) and cause', () => {
    const cause = new Error('network');
    const error = new AuthorizationError('ERR_DISCOVERY_FAILED', 'No metadata at https://as.example', {}, { cause });
    expect(error).toMatchObject({ name: 'AuthorizationError', code: 'ERR_DISCOVERY_FAILED', data: {} });
    expect(error.message).toBe('No metadata at https://as.example');
    expect(error.cause).toBe(cause);
    expect(new AuthorizationError('ERR_UNAUTHORIZED', 'refused').data).toEqual({});
  });

  it('UnauthorizedError is an AuthorizationError with the URL, found through a cause chain', () => {
    const url = new URL('https://as.example/authorize?client_id=app');
    const error = new UnauthorizedError(url, { scope: 'mcp:tools' });
    expect(error).toMatchObject({
      name: 'UnauthorizedError',
      code: 'ERR_AUTHORIZATION_REQUIRED',
      authorizationUrl: url,
      data: { authorizationUrl: url.href, scope: 'mcp:tools' },
    });
    expect(AuthorizationError.is(error)).toBe(true);
    expect(error instanceof AuthorizationError).toBe(true);
    // A derived class claims only its own instances (prototype chain), never a plain AuthorizationError.
    expect(UnauthorizedError.is(new AuthorizationError('ERR_UNAUTHORIZED', 'refused'))).toBe(false);
    expect(findAuthorizationError(new Error('transport failed', { cause: error }))).toBe(error);
  });

  it('OAuthError keeps the token endpoint fields, its data (default {}) and cause', () => {
    const cause = new TypeError('fetch failed');
    const error = new OAuthError('invalid_grant', 'The grant is gone; authorize again', {
      source: 'authorization-server',
      description: 'refresh token revoked',
      uri: 'https://as.example/errors#invalid_grant',
      status: 400,
      data: { endpoint: 'https://as.example/token' },
      cause,
    });
    expect(error).toMatchObject({
      name: 'OAuthError',
      code: 'invalid_grant',
      source: 'authorization-server',
      description: 'refresh token revoked',
      uri: 'https://as.example/errors#invalid_grant',
      status: 400,
      data: { endpoint: 'https://as.example/token' },
    });
    expect(error.cause).toBe(cause);
    const bare = new OAuthError('ERR_INVALID_TOKEN_RESPONSE', 'not JSON', { source: 'client' });
    expect(bare.data).toEqual({});
    expect('cause' in bare).toBe(false);
  });
});
