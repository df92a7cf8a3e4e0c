import type { AppCsp, AppPermissions } from '../spec';

// The sandbox rules of SEP-1865. Each function here is self-contained (no import, no module constant): the sandbox
// proxy page embeds their source text, so the host and the proxy build the same policy from one implementation.

/**
 * The Content-Security-Policy of a view, from its `_meta.ui.csp`: the spec's restrictive default when `csp` is
 * omitted, the declared origins otherwise, never more. Sources that could break out of the policy (whitespace, `;`,
 * `,`, quotes) are dropped: the server is not trusted to have checked them.
 *
 * @example
 * ```ts
 * buildViewCsp({ connectDomains: ['https://api.example.com'] });
 * // "default-src 'none'; script-src 'self' 'unsafe-inline'; … connect-src 'self' https://api.example.com; …"
 * ```
 */
export function buildViewCsp(csp: AppCsp | undefined): string {
  const list = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((source) => typeof source === 'string' && /^[^\s;,'"]+$/.test(source)) : [];
  const join = (...parts: string[]) => parts.filter((part) => part !== '').join(' ');
  const resources = list(csp?.resourceDomains).join(' ');
  const connect = list(csp?.connectDomains).join(' ');
  const frames = list(csp?.frameDomains).join(' ');
  const bases = list(csp?.baseUriDomains).join(' ');
  return [
    "default-src 'none'",
    join("script-src 'self' 'unsafe-inline'", resources),
    join("style-src 'self' 'unsafe-inline'", resources),
    join("img-src 'self' data:", resources),
    join("font-src 'self'", resources),
    join("media-src 'self' data:", resources),
    csp === undefined ? "connect-src 'none'" : join("connect-src 'self'", connect),
    `frame-src ${frames || "'none'"}`,
    "object-src 'none'",
    `base-uri ${bases || "'self'"}`,
  ].join('; ');
}

/**
 * The iframe `allow` attribute (Permissions Policy) for a view's `_meta.ui.permissions`: only the four features the
 * spec defines.
 *
 * @example
 * ```ts
 * permissionsAllow({ camera: {}, clipboardWrite: {} }); // 'camera; clipboard-write'
 * ```
 */
export function permissionsAllow(permissions: AppPermissions | undefined): string {
  const features: string[] = [];
  if (permissions?.camera) features.push('camera');
  if (permissions?.microphone) features.push('microphone');
  if (permissions?.geolocation) features.push('geolocation');
  if (permissions?.clipboardWrite) features.push('clipboard-write');
  return features.join('; ');
}

/**
 * The view's HTML with its policy as the first thing the parser sees (a `<meta http-equiv>` right after the
 * doctype): a policy placed later, or inside a `<head>` found by searching, could be preceded by content it does not
 * cover. A view cannot loosen it: every policy of a document applies.
 */
export function withCsp(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype === null ? meta + html : doctype[0] + meta + html.slice(doctype[0].length);
}

/** Options of `sandboxProxyHtml`. */
export interface SandboxProxyOptions {
  /**
   * The origins of the host pages allowed to drive this proxy. Messages from any other origin are ignored, and the
   * proxy posts only to the first of them. Required: a proxy that any page could drive would render any HTML under
   * the sandbox origin.
   */
  hostOrigins: readonly string[];
  /** The inner iframe's `sandbox` attribute. Default `'allow-scripts allow-forms'` (an opaque origin for the view). */
  sandbox?: string;
}

// The proxy's program. Runs in the sandbox page, not here: it may use only its parameters and browser globals.
function sandboxProxyMain(
  config: { hostOrigins: string[]; sandbox: string },
  cspOf: typeof buildViewCsp,
  allowOf: typeof permissionsAllow,
  withPolicy: typeof withCsp,
): void {
  const hostOrigin = config.hostOrigins[0] as string;
  let inner: HTMLIFrameElement | undefined;
  const reserved = (data: unknown) =>
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { method?: unknown }).method === 'string' &&
    (data as { method: string }).method.startsWith('ui/notifications/sandbox-');
  window.addEventListener('message', (event) => {
    const data = event.data as { method?: string; params?: Record<string, unknown> };
    if (event.source === window.parent) {
      if (!config.hostOrigins.includes(event.origin)) return;
      if (reserved(data)) {
        if (data.method !== 'ui/notifications/sandbox-resource-ready' || inner !== undefined) return;
        const params = data.params ?? {};
        if (typeof params.html !== 'string') return;
        inner = document.createElement('iframe');
        inner.setAttribute(
          'sandbox',
          typeof params.sandbox === 'string' && /^[a-z -]*$/.test(params.sandbox) ? params.sandbox : config.sandbox,
        );
        const allow = allowOf(params.permissions as never);
        if (allow !== '') inner.setAttribute('allow', allow);
        inner.style.cssText = 'border:0;width:100%;height:100%;display:block';
        inner.srcdoc = withPolicy(params.html, cspOf(params.csp as never));
        document.body.appendChild(inner);
        return;
      }
      inner?.contentWindow?.postMessage(data, '*');
    } else if (inner !== undefined && event.source === inner.contentWindow && !reserved(data)) {
      window.parent.postMessage(data, hostOrigin);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, hostOrigin);
}

/**
 * The HTML of the sandbox proxy page the spec requires of web hosts: serve it from an origin other than the host
 * page's (a subdomain of its own), with no other content. It tells the host it is ready
 * (`ui/notifications/sandbox-proxy-ready`), renders the view the host sends (`ui/notifications/sandbox-resource-ready`)
 * in an inner iframe with the view's CSP and permissions, and relays every other message both ways, checking that it
 * comes from the host page (origin and window) or from the inner frame.
 *
 * @example
 * ```ts
 * // On https://sandbox.example.com/proxy.html:
 * return new Response(sandboxProxyHtml({ hostOrigins: ['https://chat.example.com'] }), {
 *   headers: { 'content-type': 'text/html; charset=utf-8' },
 * });
 * ```
 */
export function sandboxProxyHtml(options: SandboxProxyOptions): string {
  if (options.hostOrigins.length === 0)
    throw new TypeError('sandboxProxyHtml: hostOrigins must name at least one origin');
  const config = JSON.stringify({
    hostOrigins: [...options.hostOrigins],
    sandbox: options.sandbox ?? 'allow-scripts allow-forms',
  }).replace(/</g, '\\u003c');
  const program = `(${sandboxProxyMain.toString()})(${config}, ${buildViewCsp.toString()}, ${permissionsAllow.toString()}, ${withCsp.toString()});`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>MCP Apps sandbox</title><style>html,body{margin:0;height:100%;overflow:hidden}</style></head><body><script>${program.replace(/<\/script/gi, '<\\/script')}</script></body></html>`;
}
