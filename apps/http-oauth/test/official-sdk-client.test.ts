import { afterEach, describe, expect, it } from 'vitest';
import { type RunningApp, start } from '../src/start';

// The official MCP TypeScript SDK v2 client (@modelcontextprotocol/client, a devDependency) against this server, in both
// modes. Only the few members used are typed here, so the test does not lean on the SDK's own declarations.
const SDK_CLIENT = '@modelcontextprotocol/client';

interface SdkTransport {
  finishAuth(params: URLSearchParams): Promise<void>;
}
interface SdkClient {
  connect(transport: SdkTransport): Promise<void>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{
    content: Array<{ type: string; text?: string }>;
    structuredContent?: unknown;
  }>;
  close(): Promise<void>;
}
interface Sdk {
  Client: new (info: { name: string; version: string }) => SdkClient;
  StreamableHTTPClientTransport: new (url: URL, options: { authProvider: unknown }) => SdkTransport;
  UnauthorizedError: new (...args: never[]) => Error;
}

const sdk = (await import(/* @vite-ignore */ SDK_CLIENT)) as Sdk;
const REDIRECT_URI = 'http://127.0.0.1:8765/callback';
const running: RunningApp[] = [];

afterEach(async () => {
  for (const app of running.splice(0)) await app.close();
});

/** The user's browser: follows redirects, clicks Allow on a consent page, stops at the redirect URI. */
async function browse(url: URL): Promise<URL> {
  let request = new Request(url);
  for (let hop = 0; hop < 10; hop++) {
    if (request.url.startsWith(REDIRECT_URI)) return new URL(request.url);
    const response = await fetch(request, { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
    const location = response.headers.get('location');
    if (response.status === 302 && location !== null) {
      request = new Request(new URL(location, request.url));
      continue;
    }
    const html = await response.text();
    const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
    if (action === undefined) throw new Error(`the browser got stuck at ${request.url} (${response.status})`);
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
    request = new Request(action, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
      },
      body: new URLSearchParams({ transaction: field('transaction'), csrf: field('csrf'), decision: 'approve' }),
    });
  }
  throw new Error('the browser followed more than 10 redirects');
}

/** The SDK's provider interface, in memory; it records the authorization URL instead of opening a browser. */
function memoryProvider() {
  const state: { info?: unknown; tokens?: unknown; discovery?: unknown; verifier: string; authorizationUrl?: URL } = {
    verifier: '',
  };
  const provider = {
    redirectUrl: REDIRECT_URI,
    clientMetadata: {
      client_name: 'official SDK v2 client',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    clientInformation: () => state.info,
    saveClientInformation: (info: unknown) => {
      state.info = info;
    },
    tokens: () => state.tokens,
    saveTokens: (tokens: unknown) => {
      state.tokens = tokens;
    },
    redirectToAuthorization: (url: URL) => {
      state.authorizationUrl = url;
    },
    saveCodeVerifier: (verifier: string) => {
      state.verifier = verifier;
    },
    codeVerifier: () => state.verifier,
    // Lets the SDK check, on the callback, that the code comes from the authorization server it started with.
    saveDiscoveryState: (discovery: unknown) => {
      state.discovery = discovery;
    },
    discoveryState: () => state.discovery,
  };
  return { provider, state };
}

describe('the official SDK v2 client', () => {
  for (const mode of ['direct', 'proxy'] as const) {
    it(`signs in, calls whoami, and steps up to admin_report (${mode})`, async () => {
      const { Client, StreamableHTTPClientTransport, UnauthorizedError } = sdk;
      const app = await start({ port: 0, authorizationServerPort: 0, mode, log: () => undefined });
      running.push(app);
      const { provider, state } = memoryProvider();
      const transport = () => new StreamableHTTPClientTransport(app.url, { authProvider: provider });
      /** Runs `action`; on UnauthorizedError, completes the authorization in the "browser" and runs it again. */
      const authorized = async <T>(action: () => Promise<T>): Promise<T> => {
        try {
          return await action();
        } catch (error) {
          if (!(error instanceof UnauthorizedError) || state.authorizationUrl === undefined) throw error;
          const callback = await browse(state.authorizationUrl);
          state.authorizationUrl = undefined;
          await transport().finishAuth(callback.searchParams);
          return action();
        }
      };

      const client = await authorized(async () => {
        const c = new Client({ name: 'sdk-v2', version: '1.0.0' });
        await c.connect(transport());
        return c;
      });
      const whoami = await client.callTool({ name: 'whoami', arguments: {} });
      expect(whoami.structuredContent).toMatchObject({ subject: 'demo-user', scopes: ['mcp:tools'] });
      await client.close();

      const report = await authorized(async () => {
        const c = new Client({ name: 'sdk-v2', version: '1.0.0' });
        try {
          await c.connect(transport());
          return await c.callTool({ name: 'admin_report', arguments: {} });
        } finally {
          await c.close();
        }
      });
      expect(report.content[0]?.text).toContain('Admin report for demo-user');
      expect(app.authorizationServer.tokenRequests).toEqual(['authorization_code', 'authorization_code']);
    });
  }
});
