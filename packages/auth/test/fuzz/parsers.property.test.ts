// Property-based fuzzing of what @mcpkit/auth reads from the network (issue 25): WWW-Authenticate challenges, OAuth
// metadata documents (resource and authorization server), token responses, authorization responses, and the hosts of
// server-supplied URLs. Whatever the bytes, each parser returns or throws its own coded error: never a TypeError,
// never a hang. The bounded run is part of the suite (a few seconds); MCPKIT_FUZZ_RUNS=<n> multiplies every run
// for a longer one (README, "Fuzzing").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuthorizationError } from '../../src/client/authorization-error';
import { readAuthorizationCode } from '../../src/client/authorization-response';
import { discoverAuthorizationServerMetadata, discoverResourceMetadata } from '../../src/client/discovery';
import { OAuthError } from '../../src/client/oauth-error';
import { requestToken } from '../../src/client/token-endpoint';
import { parseBearerChallenge, parseChallengeOf } from '../../src/client/www-authenticate';
import { formatBearerChallenge } from '../../src/server/www-authenticate';
import { classifyHost } from '../../src/shared/address';

const SCALE = Math.max(1, Number(process.env.MCPKIT_FUZZ_RUNS ?? '1') || 1);
const runs = (n: number) => ({ numRuns: n * SCALE });

/** Bytes a server might send as a header value: printable ASCII, quotes, commas, equals, backslashes, tabs. */
const headerText = fc.string({
  unit: fc.constantFrom(...'Bearer DPoP Basic realm=" , \\ = \t error scope resource_metadata abc123 x=y'.split('')),
  maxLength: 200,
});

const token = fc.stringMatching(/^[A-Za-z0-9_.~+-]{1,20}$/);
const quotedSafe = fc.string({ unit: fc.constantFrom(...'abcXYZ019 :/._-"\\'.split('')), maxLength: 40 });

describe('WWW-Authenticate (property-based)', () => {
  it('never throws on any header value, and parses in linear time', () => {
    fc.assert(
      fc.property(
        fc.oneof(headerText, fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 })),
        (header) => {
          const parsed = parseBearerChallenge(header);
          if (parsed !== undefined) expect(typeof parsed.params).toBe('object');
          parseChallengeOf(header, 'dpop');
        },
      ),
      runs(2_000),
    );
    // A pathological 256 KiB header: quadratic scanning would take seconds. Measured in CPU time, not wall time, so a
    // loaded machine (the suite runs files in parallel) does not fail a parser that is linear.
    const started = process.cpuUsage();
    parseBearerChallenge(`Bearer ${'a="\\'.repeat(64 * 1024)}`);
    parseBearerChallenge(`${'x, '.repeat(80 * 1024)}Bearer scope="a"`);
    const spent = process.cpuUsage(started);
    expect((spent.user + spent.system) / 1_000).toBeLessThan(1_000);
  });

  it('reads back what the server side formats, whatever the values', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            resourceMetadata: quotedSafe,
            error: fc.constantFrom('invalid_request', 'invalid_token', 'insufficient_scope') as fc.Arbitrary<
              'invalid_request' | 'invalid_token' | 'insufficient_scope'
            >,
            scope: fc.array(token, { minLength: 1, maxLength: 4 }),
          },
          { requiredKeys: [] },
        ),
        (challenge) => {
          const parsed = parseBearerChallenge(formatBearerChallenge(challenge));
          expect(parsed).toBeDefined();
          expect(parsed?.resourceMetadata).toBe(challenge.resourceMetadata);
          expect(parsed?.error).toBe(challenge.error);
          expect(parsed?.scope).toBe(challenge.scope === undefined ? undefined : challenge.scope.join(' '));
        },
      ),
      runs(1_000),
    );
  });
});

/** A fetch that answers every URL with `body` (text) and `status`. */
function answering(body: string, status = 200): typeof fetch {
  return async () => new Response(body, { status, headers: { 'content-type': 'application/json' } });
}

/** Any JSON a hostile server might send: objects with the expected keys holding values of any type, and garbage. */
const documentBody = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc
    .record(
      {
        resource: fc.oneof(fc.constant('https://mcp.example.com/mcp'), fc.jsonValue()),
        authorization_servers: fc.oneof(fc.array(fc.webUrl(), { maxLength: 3 }), fc.jsonValue()),
        issuer: fc.oneof(fc.constant('https://auth.example.com'), fc.jsonValue()),
        token_endpoint: fc.oneof(fc.webUrl(), fc.jsonValue()),
        authorization_endpoint: fc.oneof(fc.webUrl(), fc.constant('javascript:alert(1)'), fc.jsonValue()),
        code_challenge_methods_supported: fc.oneof(fc.constant(['S256']), fc.jsonValue()),
      },
      { requiredKeys: [] },
    )
    .map((document) => JSON.stringify(document)),
  fc.string({ maxLength: 200 }),
);

/** The coded errors a parser may throw on bad input: anything else is a bug. */
function expectCoded(error: unknown): void {
  if (AuthorizationError.is(error) || OAuthError.is(error)) return;
  throw error;
}

describe('OAuth metadata documents (property-based)', () => {
  it('protected resource metadata: returns a document for this resource, or a coded error', async () => {
    await fc.assert(
      fc.asyncProperty(documentBody, fc.constantFrom(200, 404, 500), async (body, status) => {
        try {
          const found = await discoverResourceMetadata(new URL('https://mcp.example.com/mcp'), {
            fetch: answering(body, status),
          });
          if (found !== undefined) expect(found.resource).toBe('https://mcp.example.com/mcp');
        } catch (error) {
          expectCoded(error);
        }
      }),
      runs(500),
    );
  });

  it('authorization server metadata: the issuer is checked before anything of the document is used', async () => {
    await fc.assert(
      fc.asyncProperty(documentBody, async (body) => {
        try {
          const { metadata } = await discoverAuthorizationServerMetadata('https://auth.example.com', {
            fetch: answering(body),
          });
          if (metadata !== undefined) {
            expect(metadata.issuer).toBe('https://auth.example.com');
            expect(typeof metadata.token_endpoint).toBe('string');
          }
        } catch (error) {
          expectCoded(error);
        }
      }),
      runs(500),
    );
  });

  it('token responses: a checked token or a coded error', async () => {
    const authorizationServer = {
      issuer: 'https://auth.example.com',
      token_endpoint: 'https://auth.example.com/token',
      response_types_supported: ['code'],
    };
    await fc.assert(
      fc.asyncProperty(documentBody, fc.constantFrom(200, 400, 401, 500), async (body, status) => {
        try {
          const response = await requestToken({
            authorizationServer,
            credentials: { clientId: 'app', authMethod: 'none' },
            grant: { grant_type: 'client_credentials' },
            fetch: answering(body, status),
          });
          expect(typeof response.access_token).toBe('string');
          expect(typeof response.token_type).toBe('string');
        } catch (error) {
          expectCoded(error);
        }
      }),
      runs(500),
    );
  });

  it('authorization responses: a code or a coded error, whatever the callback carries', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('code', 'state', 'iss', 'error', 'error_description', 'x'), fc.string(), {
          maxKeys: 6,
        }),
        fc.boolean(),
        (params, advertised) => {
          try {
            const code = readAuthorizationCode(new URLSearchParams(params), {
              issuer: 'https://auth.example.com',
              authorization_response_iss_parameter_supported: advertised,
            });
            expect(typeof code).toBe('string');
          } catch (error) {
            expectCoded(error);
          }
        },
      ),
      runs(1_000),
    );
  });
});

/** The kind of an IPv4 address computed from its integer value: the reference the parser-based check must match. */
function ipv4Reference(n: number): string {
  const a = n >>> 24;
  const b = (n >>> 16) & 0xff;
  const c = (n >>> 8) & 0xff;
  const inRange = (base: number, bits: number) => n >>> (32 - bits) === base >>> (32 - bits);
  if (a === 127) return 'loopback';
  if (inRange(0x0a000000, 8) || inRange(0xac100000, 12) || inRange(0xc0a80000, 16) || inRange(0x64400000, 10))
    return 'private';
  if (inRange(0xa9fe0000, 16)) return 'link-local';
  if (a === 0 || a >= 224) return 'reserved';
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved';
  if (inRange(0xc6120000, 15) || inRange(0xc6336400, 24) || inRange(0xcb007100, 24)) return 'reserved';
  return 'public';
}

describe('hosts of server-supplied URLs (property-based)', () => {
  it('every spelling the URL parser accepts for an IPv4 address gets the kind of that address', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 0xffffffff }),
        fc.constantFrom('decimal', 'octal', 'hex', 'dotted', 'mapped'),
        (n, form) => {
          const bytes = [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
          const host =
            form === 'decimal'
              ? String(n)
              : form === 'octal'
                ? bytes.map((byte) => `0${byte.toString(8)}`).join('.')
                : form === 'hex'
                  ? `0x${n.toString(16)}`
                  : form === 'mapped'
                    ? `[::ffff:${bytes.join('.')}]`
                    : bytes.join('.');
          expect(classifyHost(new URL(`https://${host}/`).hostname)).toBe(ipv4Reference(n));
        },
      ),
      runs(2_000),
    );
  });

  it('never throws on any host the URL parser accepts, and always answers one of the kinds', () => {
    fc.assert(
      fc.property(fc.oneof(fc.domain(), fc.ipV6(), fc.ipV4Extended(), fc.string({ maxLength: 60 })), (raw) => {
        let hostname: string;
        try {
          hostname = new URL(`https://${raw.includes(':') && !raw.startsWith('[') ? `[${raw}]` : raw}/`).hostname;
        } catch {
          return; // not a URL host at all: the URL parser refuses it before we see it
        }
        const kind = classifyHost(hostname);
        expect(['loopback', 'private', 'link-local', 'unique-local', 'reserved', 'public', 'name']).toContain(kind);
      }),
      runs(2_000),
    );
  });
});
