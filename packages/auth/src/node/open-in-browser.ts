// Opening the authorization URL on the user's machine. The URL comes from an authorization server a remote MCP server
// named, so it is data, never code: it is checked (https:, or http: to loopback) and handed to the platform's opener
// as one argument with no shell in between. A shell string (`exec(\`open ${url}\`)`) is how CVE-2025-6514 ran code.
import { execFile } from 'node:child_process';
import { classifyHost } from '../shared/address';

/** The opener per platform and how it takes the URL: a program and its arguments, never a shell. */
function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  // rundll32 passes the URL to the default handler itself; `cmd /c start` would parse it as a command line.
  if (process.platform === 'win32') return ['rundll32.exe', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/**
 * Opens `url` in the user's browser (macOS `open`, Windows `url.dll`, elsewhere `xdg-open`), after checking it is an
 * `https:` URL (or `http:` to loopback). Rejects for any other URL, and when the opener fails to start.
 *
 * @example
 * ```ts
 * import { openInBrowser } from '@mcpkit/auth/node';
 * const oauth = new OAuthClient({
 *   provider: {
 *     redirectUrl: 'http://127.0.0.1:8765/callback',
 *     async redirectToAuthorization({ authorizationUrl }) {
 *       await openInBrowser(authorizationUrl);
 *       return await waitForLoopbackCallback(8765);
 *     },
 *   },
 * });
 * ```
 */
export function openInBrowser(url: URL | string): Promise<void> {
  const parsed = new URL(url);
  const safe =
    parsed.protocol === 'https:' || (parsed.protocol === 'http:' && classifyHost(parsed.hostname) === 'loopback');
  if (!safe) {
    return Promise.reject(
      new TypeError(`openInBrowser: refusing ${parsed.protocol} URL; only https: (or loopback http:)`),
    );
  }
  const [program, args] = opener(parsed.href);
  return new Promise((resolve, reject) => {
    execFile(program, args, { shell: false, windowsHide: true }, (error) => (error ? reject(error) : resolve()));
  });
}
