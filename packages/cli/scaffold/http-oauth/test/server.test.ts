// Starts the protected server and its demo authorization server, then signs in as a client would.
import { Client } from '@mcpkit/client';
import { createOAuthFetch } from '@mcpkit/client/auth';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { expect, it } from 'vitest';
import { start } from '../src/start';

it('refuses a request without a token, and answers after an OAuth sign-in', { timeout: 30_000 }, async () => {
  const running = await start({ port: 0, authorizationServerPort: 0 });
  try {
    const refused = await fetch(running.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata');

    const fetchWithAuth = createOAuthFetch({
      provider: {
        redirectUrl: 'http://127.0.0.1:8765/callback',
        clientMetadata: { client_name: 'test' },
        // The demo authorization server approves at once: follow its redirect instead of opening a browser.
        async redirectToAuthorization({ authorizationUrl }) {
          const response = await fetch(authorizationUrl, { redirect: 'manual' });
          return response.headers.get('location') ?? undefined;
        },
      },
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(running.url, { fetch: fetchWithAuth }));
    const whoami = await client.callTool({ name: 'whoami' });
    expect(JSON.stringify(whoami.content)).toContain('mcp:tools');
    await client.close();
  } finally {
    await running.close();
  }
});
