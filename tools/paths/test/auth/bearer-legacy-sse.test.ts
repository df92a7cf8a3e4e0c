// Bearer auth in front of the legacy HTTP+SSE handler: the stream and every POST authenticated, the session owned by
// the identity that opened it, per-tool scopes through the same middleware as every transport.

import { createBearerAuth, createJwtVerifier } from '@mcpkit/auth/server';
import { createSseHandler, type SseHandler } from '@mcpkit/transport-http';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestIssuer, ISSUER } from '../../../../packages/auth/test/server/fixtures/issuer';
import {
  createProtectedServer,
  PROTECTED_SCOPES,
} from '../../../../packages/auth/test/server/fixtures/protected-server';

const SSE_URL = 'http://127.0.0.1:3000/sse';

const handlers: SseHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

/** The `data` of the next SSE event, awaited at most 3 s. */
async function nextData(reader: ReadableStreamDefaultReader<Uint8Array>, buffer: { text: string }): Promise<string> {
  const decoder = new TextDecoder();
  const deadline = Date.now() + 3_000;
  for (;;) {
    const end = buffer.text.indexOf('\n\n');
    if (end !== -1) {
      const event = buffer.text.slice(0, end);
      buffer.text = buffer.text.slice(end + 2);
      const data = event.split('\n').find((line) => line.startsWith('data: '));
      if (data !== undefined) return data.slice('data: '.length);
      continue;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new Error('no SSE event within 3 s');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const chunk = await Promise.race([
      reader.read(),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), remaining);
      }),
    ]);
    clearTimeout(timer);
    if (chunk === 'timeout') continue;
    if (chunk.done) throw new Error('the SSE stream ended');
    buffer.text += decoder.decode(chunk.value, { stream: true });
  }
}

describe('bearer auth in front of createSseHandler', async () => {
  const issuer = await createTestIssuer();
  const reader = await issuer.mint({ scope: 'mcp:tools' });
  const bob = await issuer.mint({ scope: 'mcp:tools files:write', sub: 'bob' });

  function setup() {
    const { server, ran } = createProtectedServer('protected-sse');
    const bearer = createBearerAuth({
      ...PROTECTED_SCOPES,
      verifier: createJwtVerifier({ issuer: ISSUER, keySet: issuer.jwks }),
    });
    server.use(bearer.middleware);
    const sse = createSseHandler(server, { keepAliveMs: 0 });
    handlers.push(sse);
    return { handler: bearer.protect(sse), ran };
  }

  const headers = (token?: string) => ({
    host: '127.0.0.1:3000',
    accept: 'text/event-stream',
    'content-type': 'application/json',
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  });

  it('refuses to open a stream without a token: 401 with the challenge', async () => {
    const { handler } = setup();
    const response = await handler.handle(new Request(SSE_URL, { headers: headers() }));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"',
    );
  });

  it('serves the owner, refuses others, and steps up per tool with 403 on the POST', async () => {
    const { handler, ran } = setup();
    const stream = await handler.handle(new Request(SSE_URL, { headers: headers(reader) }));
    expect(stream.status).toBe(200);
    const events = stream.body!.getReader();
    const buffer = { text: '' };
    const endpoint = new URL(await nextData(events, buffer), SSE_URL);
    let id = 1;
    const post = (token: string | undefined, method: string, params: Record<string, unknown>) =>
      handler.handle(
        new Request(endpoint, {
          method: 'POST',
          headers: headers(token),
          body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }),
        }),
      );
    const init = await post(reader, 'initialize', {
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 'old', version: '1' },
    });
    expect(init.status).toBe(202);
    expect(JSON.parse(await nextData(events, buffer)).result.protocolVersion).toBe('2024-11-05');

    // No token on the POST: 401, like every request to a protected endpoint.
    expect((await post(undefined, 'tools/call', { name: 'whoami', arguments: {} })).status).toBe(401);
    // Bob's token is valid, and even has files:write, but the session is Alice's.
    expect((await post(bob, 'tools/call', { name: 'delete_file', arguments: {} })).status).toBe(404);
    // Alice lacks files:write: 403 with what the call needs.
    const refused = await post(reader, 'tools/call', { name: 'delete_file', arguments: {} });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(
      /error="insufficient_scope".*scope="mcp:tools files:write"/,
    );
    expect(ran).toEqual([]);

    expect((await post(reader, 'tools/call', { name: 'whoami', arguments: {} })).status).toBe(202);
    expect(JSON.parse(await nextData(events, buffer)).result.content[0].text).toBe('alice app mcp:tools legacy');
    expect(ran).toEqual(['whoami']);
    await events.cancel();
  });
});
