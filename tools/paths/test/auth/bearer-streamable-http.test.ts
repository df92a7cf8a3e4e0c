// Bearer auth in front of a real Streamable HTTP endpoint (in process, and once through the node adapter).
import { createServer } from 'node:http';
import { type BearerAuth, createBearerAuth, createJwtVerifier } from '@mcpkit/auth/server';
import { standardHeadersFor } from '@mcpkit/protocol';
import { createStreamableHttpHandler, withCors } from '@mcpkit/transport-http';
import { toNodeHandler } from '@mcpkit/transport-http/node';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestIssuer,
  ISSUER,
  RESOURCE,
  type TestIssuer,
} from '../../../../packages/auth/test/server/fixtures/issuer';
import {
  createProtectedServer,
  legacyToolCall as legacyCall,
  legacyInitialize,
  modernToolCall as modernCall,
  PROTECTED_SCOPES,
} from '../../../../packages/auth/test/server/fixtures/protected-server';

const LEGACY = '2025-11-25';
const ACCEPT = 'application/json, text/event-stream';

function post(body: unknown, headers: Record<string, string> = {}, url = RESOURCE): Request {
  const message = body as { params?: { _meta?: unknown } };
  const standard = message.params?._meta === undefined ? {} : standardHeadersFor(body as never);
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, host: '127.0.0.1:3000', ...standard, ...headers },
    body: JSON.stringify(body),
  });
}

const bearerHeader = (token: string) => ({ authorization: `Bearer ${token}` });

/** The protected server behind bearer auth, answering JSON. */
function setup(issuer: TestIssuer) {
  const { server, ran } = createProtectedServer('protected');
  const bearer = createBearerAuth({
    ...PROTECTED_SCOPES,
    verifier: createJwtVerifier({ issuer: ISSUER, keySet: issuer.jwks }),
  });
  server.use(bearer.middleware);
  const endpoint = createStreamableHttpHandler(server, { responseMode: 'json' });
  return { server, bearer, endpoint, handler: bearer.protect(endpoint), ran };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('bearer auth in front of createStreamableHttpHandler', async () => {
  const issuer = await createTestIssuer();
  const reader = await issuer.mint({ scope: 'mcp:tools' });
  const writer = await issuer.mint({ scope: 'mcp:tools files:write' });

  function made() {
    const made = setup(issuer);
    closers.push(() => made.endpoint.close());
    return made;
  }

  it('answers 401 with a challenge before any MCP processing, and runs nothing', async () => {
    const { handler, ran } = made();
    const response = await handler.handle(post(modernCall('whoami')));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"',
    );
    const expired = await issuer.mint({ scope: 'mcp:tools', exp: Math.floor(Date.now() / 1000) - 60 });
    const refused = await handler.handle(post(modernCall('whoami'), bearerHeader(expired)));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(ran).toEqual([]);
  });

  it('hands the verified identity to the tool handler as ctx.auth (2026-07-28)', async () => {
    const { handler } = made();
    const response = await handler.handle(post(modernCall('whoami'), bearerHeader(reader)));
    expect(response.status).toBe(200);
    expect((await response.json()).result.content[0].text).toBe('alice app mcp:tools modern');
  });

  it('steps up per tool: 403 insufficient_scope from the middleware, then success with the scope', async () => {
    const { handler, ran } = made();
    const refused = await handler.handle(post(modernCall('delete_file'), bearerHeader(reader)));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    expect(refused.headers.get('www-authenticate')).toMatch(/scope="mcp:tools files:write"/);
    expect(await refused.json()).toMatchObject({ error: { code: 403, data: { error: 'insufficient_scope' } } });
    expect(ran).toEqual([]);
    const allowed = await handler.handle(post(modernCall('delete_file'), bearerHeader(writer)));
    expect((await allowed.json()).result.content[0].text).toBe('deleted');
    expect(ran).toEqual(['delete_file']);
  });

  it('judges the tool by params.name, which the handler first holds equal to the Mcp-Name header', async () => {
    const { handler, ran } = made();
    // A client naming a harmless tool in the header while calling a scoped one is refused before authorization.
    const response = await handler.handle(
      post(modernCall('delete_file'), { ...bearerHeader(reader), 'mcp-name': 'whoami' }),
    );
    expect(response.status).toBe(400);
    expect(ran).toEqual([]);
  });

  it('checks the tool scope of legacy requests too: a single call gets HTTP 403, each call of a batch its own answer', async () => {
    const { handler, ran } = made();
    const init = await handler.handle(post(legacyInitialize('2025-03-26'), bearerHeader(reader)));
    const sessionId = init.headers.get('mcp-session-id')!;
    const headers = { ...bearerHeader(reader), 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' };
    const refused = await handler.handle(post(legacyCall('delete_file'), headers));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/scope="mcp:tools files:write"/);
    expect(ran).toEqual([]);
    // A batch is checked call by call (nothing can be smuggled past the check): the refused one gets its error.
    const calls = [legacyCall('whoami'), legacyCall('delete_file')];
    const batch = await handler.handle(post(calls, headers));
    expect(batch.status).toBe(200);
    const answers: { id: number; result?: unknown; error?: { code: number } }[] = await batch.json();
    const byId = new Map(answers.map((answer) => [answer.id, answer.error?.code ?? 'ok']));
    expect(calls.map((call) => byId.get(call.id))).toEqual(['ok', 403]);
    expect(ran).toEqual(['whoami']);
  });

  it("binds a legacy session to its identity: another identity's token gets 404 for that session id", async () => {
    const { handler, ran } = made();
    const init = await handler.handle(post(legacyInitialize(LEGACY), bearerHeader(reader)));
    const sessionId = init.headers.get('mcp-session-id');
    expect(sessionId).toBeTruthy();
    const session = { 'mcp-session-id': sessionId!, 'mcp-protocol-version': LEGACY };
    // The same identity with a refreshed token keeps the session.
    const refreshed = await issuer.mint({ scope: 'mcp:tools', jti: 'refreshed' });
    expect(refreshed).not.toBe(reader);
    const mine = await handler.handle(post(legacyCall('whoami'), { ...bearerHeader(refreshed), ...session }));
    expect((await mine.json()).result.content[0].text).toBe('alice app mcp:tools legacy');
    // Bob, with a perfectly valid token of his own, cannot use Alice's session.
    const bob = await issuer.mint({ scope: 'mcp:tools', sub: 'bob' });
    const theirs = await handler.handle(post(legacyCall('whoami'), { ...bearerHeader(bob), ...session }));
    expect(theirs.status).toBe(404);
    const stream = await handler.handle(
      new Request(RESOURCE, {
        headers: { accept: 'text/event-stream', host: '127.0.0.1:3000', ...bearerHeader(bob), ...session },
      }),
    );
    expect(stream.status).toBe(404);
    expect(ran).toEqual(['whoami']);
  });

  it('lets CORS expose WWW-Authenticate on a refusal (withCors outside, bearer inside)', async () => {
    const { endpoint, bearer } = made();
    const handler = withCors(bearer.protect(endpoint), { origin: ['https://app.example.com'] });
    const response = await handler.handle(
      new Request(RESOURCE, { method: 'POST', headers: { origin: 'https://app.example.com' } }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(response.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('www-authenticate');
    const preflight = await handler.handle(
      new Request(RESOURCE, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      }),
    );
    expect(preflight.status).toBe(204);
  });
});

describe('bearer auth through the node adapter', async () => {
  const issuer = await createTestIssuer();

  it('answers the refusal of the auth step and serves the identity on 127.0.0.1', async () => {
    const { endpoint, bearer } = setup(issuer);
    const withBearer: BearerAuth = bearer;
    const listener = toNodeHandler(endpoint, { auth: (_req, request) => withBearer.authenticate(request) });
    const server = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(
      () => endpoint.close(),
      () => new Promise((resolve) => server.close(resolve)),
    );
    const { port } = server.address() as { port: number };
    const url = `http://127.0.0.1:${port}/mcp`;
    const call = modernCall('whoami');
    const init = (authorization?: string): RequestInit => ({
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: ACCEPT,
        ...standardHeadersFor(call as never),
        ...(authorization === undefined ? {} : { authorization }),
      },
      body: JSON.stringify(call),
      signal: AbortSignal.timeout(5000),
    });
    const refused = await fetch(url, init());
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata="http://127.0.0.1:3000/');
    expect(await refused.json()).toMatchObject({ error: 'unauthorized' });
    const token = await issuer.mint({ scope: 'mcp:tools' });
    const served = await fetch(url, init(`Bearer ${token}`));
    expect(served.status).toBe(200);
    expect((await served.json()).result.content[0].text).toBe('alice app mcp:tools modern');
  });
});

describe('bearer.middleware alone on Streamable HTTP: a refusal before the handler becomes the HTTP status', async () => {
  const issuer = await createTestIssuer();
  const reader = await issuer.mint({ scope: 'mcp:tools' });

  function middlewareOnly(sessions: boolean) {
    const { server, ran } = createProtectedServer('protected-mw');
    const bearer = createBearerAuth({
      ...PROTECTED_SCOPES,
      verifier: createJwtVerifier({ issuer: ISSUER, keySet: issuer.jwks }),
    });
    server.use(bearer.middleware);
    const endpoint = createStreamableHttpHandler(server, { sessions });
    closers.push(() => endpoint.close());
    return { handler: bearer.protect(endpoint), ran };
  }

  it('2026-07-28: an under-scoped tools/call answers HTTP 403 with the challenge, and the tool never runs', async () => {
    const { handler, ran } = middlewareOnly(true);
    const response = await handler.handle(post(modernCall('delete_file'), bearerHeader(reader)));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer error="insufficient_scope".*scope="mcp:tools files:write"$/,
    );
    const body = await response.json();
    expect(body.error).toMatchObject({ code: 403, data: { error: 'insufficient_scope', tool: 'delete_file' } });
    expect(ran).toEqual([]);
  });

  it('legacy stateless: the same 403', async () => {
    const { handler, ran } = middlewareOnly(false);
    const response = await handler.handle(
      post(legacyCall('delete_file'), { ...bearerHeader(reader), 'mcp-protocol-version': LEGACY }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(ran).toEqual([]);
  });
});
