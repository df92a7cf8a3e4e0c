import { AppsError } from '../apps-error';
import { PostMessageTransport } from '../post-message-transport';
import { APP_HTML_MIME_TYPE, type AppResourceUiMeta, DEFAULT_MAX_VIEW_HTML_BYTES } from '../spec';
import { utf8Length } from '../utf8-length';
import { AppBridge, type AppBridgeOptions } from './app-bridge';
import { permissionsAllow } from './sandbox';

/** Options of `mountAppView`. */
export interface MountAppViewOptions extends AppBridgeOptions {
  /** Where the iframe goes. */
  container: HTMLElement;
  /** The `ui://` URI of the view (the tool's `_meta.ui.resourceUri`); read with `client.readResource`. */
  resourceUri: string;
  /**
   * The URL of the sandbox proxy page (`sandboxProxyHtml`), on an origin other than the host page's: the spec's
   * double iframe. The bridge only hears messages from that origin and that frame.
   */
  sandboxUrl: string | URL;
  /** The largest view HTML rendered, in UTF-8 bytes. Default `DEFAULT_MAX_VIEW_HTML_BYTES` (4 MiB). */
  maxHtmlBytes?: number;
  /** How long the proxy and then the view may take to get ready, in milliseconds each. Default 10 000. */
  readyTimeoutMs?: number;
  /** Messages the bridge's transport dropped: from another origin or another window. */
  onrejected?: (reason: 'origin' | 'source', event: MessageEvent) => void;
}

/** A rendered view: its iframe, its bridge, and `teardown` that removes both. */
export interface MountedAppView {
  iframe: HTMLIFrameElement;
  bridge: AppBridge;
  /** `_meta.ui` of the view as read (CSP, permissions, prefersBorder…). */
  ui: AppResourceUiMeta;
  /** `bridge.teardown(reason)`, then the iframe is removed. */
  teardown(reason?: string): Promise<'answered' | 'timeout' | 'error' | 'not-initialized'>;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AppsError('ERR_VIEW_TIMEOUT', `mountAppView: ${what} within ${ms} ms`, { ms })),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Renders a view in the spec's double iframe and connects a bridge to it: reads the view (`resources/read`), refuses
 * it when it is not `text/html;profile=mcp-app` or is over `maxHtmlBytes`, creates the outer iframe on the sandbox
 * proxy's origin (`sandbox="allow-scripts allow-same-origin"`, `allow` from the view's `permissions`), hands the proxy
 * the HTML with its CSP and permissions, and resolves once the view finished its handshake.
 *
 * @example
 * ```ts
 * const view = await mountAppView({
 *   container: document.getElementById('view')!,
 *   client, resourceUri: tool._meta.ui.resourceUri, sandboxUrl: 'https://sandbox.example.com/proxy.html',
 *   hostInfo: { name: 'my-host', version: '1.0.0' },
 *   onsizechange: ({ height }) => { if (height) view.iframe.style.height = `${height}px`; },
 *   onopenlink: (url) => void window.open(url, '_blank', 'noopener'),
 * });
 * await view.bridge.sendToolInput(args);
 * await view.bridge.sendToolResult(result);
 * ```
 */
export async function mountAppView(options: MountAppViewOptions): Promise<MountedAppView> {
  const read = (await options.client.readResource({ uri: options.resourceUri })) as {
    contents?: Array<{
      uri?: string;
      mimeType?: string;
      text?: unknown;
      blob?: unknown;
      _meta?: { ui?: AppResourceUiMeta };
    }>;
  };
  const content = read.contents?.find((entry) => entry.uri === options.resourceUri) ?? read.contents?.[0];
  if (content === undefined || content.mimeType !== APP_HTML_MIME_TYPE) {
    throw new AppsError(
      'ERR_NOT_A_VIEW',
      `mountAppView: ${options.resourceUri} is not an MCP Apps view (MIME type ${JSON.stringify(content?.mimeType)}, expected ${APP_HTML_MIME_TYPE})`,
      { uri: options.resourceUri, mimeType: content?.mimeType },
    );
  }
  const limit = options.maxHtmlBytes ?? DEFAULT_MAX_VIEW_HTML_BYTES;
  let html: string;
  if (typeof content.text === 'string') html = content.text;
  else if (typeof content.blob === 'string') {
    if ((content.blob.length * 3) / 4 > limit + 3)
      html = content.blob; // too large either way; refused below
    else html = new TextDecoder().decode(Uint8Array.from(atob(content.blob), (char) => char.charCodeAt(0)));
  } else
    throw new AppsError('ERR_NOT_A_VIEW', `mountAppView: ${options.resourceUri} has neither text nor blob`, {
      uri: options.resourceUri,
    });
  const bytes = utf8Length(html);
  if (bytes > limit) {
    throw new AppsError(
      'ERR_VIEW_TOO_LARGE',
      `mountAppView: the view ${options.resourceUri} is ${bytes} bytes, over the limit of ${limit} (maxHtmlBytes)`,
      { uri: options.resourceUri, bytes, limit },
    );
  }
  const ui = content._meta?.ui ?? {};
  const sandboxUrl = new URL(options.sandboxUrl, location.href);
  if (sandboxUrl.origin === location.origin) {
    throw new AppsError(
      'ERR_SANDBOX',
      'mountAppView: the sandbox proxy must be served from another origin than the host page',
      {
        sandboxUrl: sandboxUrl.href,
      },
    );
  }

  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  const allow = permissionsAllow(ui.permissions);
  if (allow !== '') iframe.setAttribute('allow', allow);
  iframe.style.border = ui.prefersBorder === true ? '1px solid #d0d0d0' : '0';
  iframe.style.width = '100%';
  options.container.appendChild(iframe);
  const target = iframe.contentWindow;
  if (target === null) throw new AppsError('ERR_SANDBOX', 'mountAppView: the container is not in a document', {});

  const bridge = new AppBridge({
    ...options,
    sandbox: {
      ...(ui.csp !== undefined && { csp: ui.csp }),
      ...(ui.permissions !== undefined && { permissions: ui.permissions }),
    },
  });
  const proxyReady = new Promise<void>((resolve) => bridge.onsandboxready(resolve));
  const transport = new PostMessageTransport({
    target,
    targetOrigin: sandboxUrl.origin,
    expectedSource: target,
    ...(options.onrejected && { onrejected: options.onrejected }),
  });
  // Connected before the proxy loads, so its ready notification cannot be missed.
  await bridge.connect(transport);
  iframe.src = sandboxUrl.href;
  const wait = options.readyTimeoutMs ?? 10_000;
  const mounted: MountedAppView = {
    iframe,
    bridge,
    ui,
    async teardown(reason) {
      try {
        return await bridge.teardown(reason);
      } finally {
        iframe.remove();
      }
    },
  };
  try {
    await within(proxyReady, wait, 'the sandbox proxy did not get ready');
    await bridge.sendSandboxResourceReady({
      html,
      ...(ui.csp !== undefined && { csp: ui.csp }),
      ...(ui.permissions !== undefined && { permissions: ui.permissions }),
    });
    await within(bridge.initialized, wait, 'the view did not finish its handshake');
  } catch (error) {
    await bridge.close();
    iframe.remove();
    throw error;
  }
  return mounted;
}
