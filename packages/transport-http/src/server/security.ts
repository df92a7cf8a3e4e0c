import { errorResponse } from './responses';

// DNS-rebinding protection: a web page on evil.example can resolve its name to 127.0.0.1 and make the browser talk
// to a local server. The browser then sends `Host: evil.example` and `Origin: http://evil.example`, which a local
// server must refuse (403). On by default; public servers list their names.

/** Host and Origin allow-lists. */
export interface HostOriginOptions {
  /**
   * Host names the server answers to: `example.com` (any port) or `example.com:8443` (that port only). Default:
   * `localhost`, `127.0.0.1` and `[::1]`, on any port — whatever `allowedOrigins` says, so that allowing a browser
   * origin never turns the Host check off by accident.
   */
  allowedHosts?: readonly string[];
  /**
   * Browser origins allowed to call the server, exactly as browsers send them (`https://app.example.com`). Default:
   * origins whose host passes the host check (so `http://localhost:5173` for a local server). Requests without an
   * `Origin` header (non-browser clients) are not affected.
   */
  allowedOrigins?: readonly string[];
  /** Turn both checks off (for example behind a proxy that already does them). Default `true`. */
  dnsRebindingProtection?: boolean;
}

const LOCAL_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

function hostname(host: string): string {
  // `[::1]:3000` → `[::1]`; `localhost:3000` → `localhost`.
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/** A compiled host/origin policy; `check` returns a 403 response or `undefined` when the request may proceed. */
export class HostOriginPolicy {
  readonly #enabled: boolean;
  readonly #hosts: ReadonlySet<string>;
  readonly #origins: ReadonlySet<string> | undefined;

  constructor(options: HostOriginOptions = {}) {
    this.#enabled = options.dnsRebindingProtection !== false;
    const hosts = options.allowedHosts ?? LOCAL_HOSTS;
    this.#hosts = new Set(hosts.map((host) => host.toLowerCase()));
    this.#origins =
      options.allowedOrigins === undefined ? undefined : new Set(options.allowedOrigins.map((o) => o.toLowerCase()));
  }

  #hostAllowed(host: string): boolean {
    const hosts = this.#hosts;
    const lower = host.toLowerCase();
    return hosts.has(lower) || hosts.has(hostname(lower));
  }

  check(request: Request): Response | undefined {
    if (!this.#enabled) return undefined;
    const headers = request.headers;
    let host = headers.get('host');
    if (host === null) {
      try {
        host = new URL(request.url).host;
      } catch {
        host = '';
      }
    }
    if (!this.#hostAllowed(host)) {
      return errorResponse(403, -32000, `Forbidden: Host '${host}' is not allowed (DNS rebinding protection)`, {
        data: { host },
      });
    }
    const origin = headers.get('origin');
    if (origin !== null && !this.#originAllowed(origin)) {
      return errorResponse(403, -32000, `Forbidden: Origin '${origin}' is not allowed (DNS rebinding protection)`, {
        data: { origin },
      });
    }
    return undefined;
  }

  #originAllowed(origin: string): boolean {
    const lower = origin.toLowerCase();
    if (this.#origins !== undefined) return this.#origins.has(lower);
    // Default: the origin's host must pass the host check (and be http or https).
    const scheme = lower.startsWith('http://') ? 7 : lower.startsWith('https://') ? 8 : -1;
    if (scheme === -1) return false;
    const rest = lower.slice(scheme);
    const slash = rest.indexOf('/');
    return this.#hostAllowed(slash === -1 ? rest : rest.slice(0, slash));
  }
}
