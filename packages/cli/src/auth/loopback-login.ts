import { createServer } from 'node:http';
import { join } from 'node:path';
import { OAuthClient } from '@mcpkit/client/auth';
import { type CliIo, note } from '../io';
import { openInBrowser } from '../open-url';
import { configFolder } from './config-folder';
import { FileOAuthStore } from './file-store';

/** The default port of the loopback redirect (`--callback-port`): fixed, so a registration made once keeps working. */
export const DEFAULT_CALLBACK_PORT = 8976;

/** The file the CLI keeps OAuth state in. */
export function oauthStore(env: NodeJS.ProcessEnv): FileOAuthStore {
  return new FileOAuthStore(join(configFolder(env), 'oauth.json'));
}

/**
 * An OAuth client for a person at a terminal (RFC 8252, native apps): on a 401 it registers (or reuses a
 * registration), opens the authorization URL in the browser — or prints it when there is no display — and waits for
 * the redirect on a loopback listener (127.0.0.1, `callbackPort`), which it starts for that one request. Tokens are
 * kept in the user's config folder (`FileOAuthStore`) and refreshed by the client.
 *
 * @example
 * const { fetch } = loopbackOAuth(io, { callbackPort: 8976 });
 * new StreamableHttpClientTransport(url, { fetch });
 */
export function loopbackOAuth(io: CliIo, options: { callbackPort?: number; timeoutMs?: number } = {}): OAuthClient {
  const port = options.callbackPort ?? DEFAULT_CALLBACK_PORT;
  const redirectUrl = `http://127.0.0.1:${port}/callback`;
  return new OAuthClient({
    provider: {
      store: oauthStore(io.env),
      redirectUrl,
      clientMetadata: { client_name: 'mcpkit CLI', application_type: 'native' },
      async redirectToAuthorization({ authorizationUrl, signal }) {
        const callback = waitForCallback(port, options.timeoutMs ?? 5 * 60_000, signal);
        await callback.listening;
        note(io, `Sign in to continue: ${authorizationUrl.href}`);
        const opened = await (io.openUrl ?? ((url) => openInBrowser(url, io.env)))(authorizationUrl.href);
        note(
          io,
          opened
            ? '(opened in your browser; waiting for the redirect…)'
            : '(open that URL in a browser on this machine)',
        );
        return await callback.url;
      },
    },
  });
}

/** A one-shot listener for the authorization redirect: resolves to the full callback URL. */
function waitForCallback(
  port: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): { listening: Promise<void>; url: Promise<string> } {
  const server = createServer();
  let resolveUrl!: (url: string) => void;
  let rejectUrl!: (error: Error) => void;
  const url = new Promise<string>((resolve, reject) => {
    resolveUrl = resolve;
    rejectUrl = reject;
  });
  const finish = () => {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  };
  const timer = setTimeout(() => {
    finish();
    rejectUrl(new Error(`No authorization redirect arrived within ${Math.round(timeoutMs / 1000)} s`));
  }, timeoutMs);
  signal?.addEventListener('abort', () => {
    finish();
    rejectUrl(new Error('The sign-in was cancelled'));
  });
  server.on('request', (req, res) => {
    const target = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (target.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const failed = target.searchParams.get('error');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
    res.end(
      failed
        ? '<!doctype html><title>mcpkit</title><p>The sign-in failed. You can close this tab.</p>'
        : '<!doctype html><title>mcpkit</title><p>Signed in. You can close this tab and go back to the terminal.</p>',
    );
    finish();
    resolveUrl(target.href);
  });
  const listening = new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(
          `Cannot listen for the authorization redirect on 127.0.0.1:${port}: ${error.message} (use --callback-port)`,
        ),
      );
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { listening, url };
}
