import { describe, expect, it } from 'vitest';
import { AuthConfigError, OAuthProxyError, TokenVerificationError } from '../src/index';

// The brand keys are a contract: another copy of the package recognises these errors by them.
const foreign = (key: string) => Object.create(Error.prototype, { [Symbol.for(key)]: { value: true } });
// Seen through what the checks use (a union of the classes would not type `is`'s `this`).
type Recogniser = { is(value: unknown): boolean; [Symbol.hasInstance](value: unknown): boolean };

describe('the errors of @mcpkit/middleware', () => {
  it('recognise instances from another copy by their brand keys, and nothing else', () => {
    for (const [Class, key] of [
      [TokenVerificationError, '@mcpkit/middleware/TokenVerificationError'],
      [AuthConfigError, '@mcpkit/middleware/AuthConfigError'],
      [OAuthProxyError, '@mcpkit/middleware/OAuthProxyError'],
    ] as [Recogniser, string][]) {
      expect(Class.is(foreign(key))).toBe(true);
      expect(foreign(key) instanceof Class).toBe(true);
      expect(Class.is(new Error('plain'))).toBe(false);
    }
    expect(AuthConfigError.is(new OAuthProxyError('ERR_PROXY_OPTIONS', 'x'))).toBe(false);
  });

  it('TokenVerificationError chains data.cause as the error cause', () => {
    const cause = new Error('JWKS endpoint down');
    const error = new TokenVerificationError('verifier_unavailable', 'Cannot check tokens now', {
      reason: 'unreachable',
      cause,
    });
    expect(error).toMatchObject({ name: 'TokenVerificationError', code: 'verifier_unavailable' });
    expect(error.data.reason).toBe('unreachable');
    expect(error.cause).toBe(cause);
    expect('cause' in new TokenVerificationError('invalid_token', 'expired', { reason: 'expired' })).toBe(false);
  });

  it('AuthConfigError has the one code invalid_auth_options; OAuthProxyError data defaults to {}', () => {
    const config = new AuthConfigError('`resource` must be an absolute https URL', {
      option: 'resource',
      value: 'mcp',
    });
    expect(config).toMatchObject({
      name: 'AuthConfigError',
      code: 'invalid_auth_options',
      data: { option: 'resource', value: 'mcp' },
    });
    const proxy = new OAuthProxyError('ERR_UPSTREAM_UNREACHABLE', 'The identity provider did not answer');
    expect(proxy).toMatchObject({ name: 'OAuthProxyError', code: 'ERR_UPSTREAM_UNREACHABLE', data: {} });
  });
});
