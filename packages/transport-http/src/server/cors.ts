import type { HandleExtra } from './handler';

/** Options for {@link withCors}. */
export interface CorsOptions {
  /**
   * Origins allowed to call the endpoint from a browser: a list of exact origins, `'*'` for any, or a predicate.
   * Remember the endpoint's own Origin check (DNS-rebinding protection) runs too: list browser origins in its
   * `allowedOrigins` as well.
   */
  origin: readonly string[] | '*' | ((origin: string) => boolean);
  /** Extra request headers to allow (the MCP ones, `Authorization` and `Content-Type` always are). */
  allowHeaders?: readonly string[];
  /** Extra response headers to expose (`Mcp-Session-Id`, `MCP-Protocol-Version`, `WWW-Authenticate` always are). */
  exposeHeaders?: readonly string[];
  /** How long browsers may cache a preflight, in seconds. Default 600. */
  maxAgeSeconds?: number;
  /** Send `Access-Control-Allow-Credentials: true` (cookies). Not with `origin: '*'`. Default false. */
  credentials?: boolean;
}

const ALLOWED_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
];
const EXPOSED_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'www-authenticate'];

interface Handles {
  handle(request: Request, extra?: HandleExtra): Promise<Response>;
}

/**
 * Adds CORS to an endpoint so browser clients can reach it: answers preflights (allowing the MCP headers, every
 * `Mcp-Param-*` header, `Authorization` and `Last-Event-ID`) and exposes `Mcp-Session-Id` on responses.
 *
 * @example
 * const handler = withCors(createStreamableHttpHandler(server, { allowedOrigins: ['https://app.example.com'] }), {
 *   origin: ['https://app.example.com'],
 * });
 */
export function withCors<H extends Handles>(handler: H, options: CorsOptions): H {
  const allowed = new Set([...ALLOWED_HEADERS, ...(options.allowHeaders ?? []).map((name) => name.toLowerCase())]);
  const expose = [...EXPOSED_HEADERS, ...(options.exposeHeaders ?? [])].join(', ');
  const maxAge = String(options.maxAgeSeconds ?? 600);
  const list = Array.isArray(options.origin) ? new Set(options.origin as readonly string[]) : undefined;
  const originAllowed = (origin: string): boolean =>
    options.origin === '*'
      ? true
      : list !== undefined
        ? list.has(origin)
        : (options.origin as (o: string) => boolean)(origin);

  const decorate = (headers: Headers, origin: string): void => {
    headers.set('access-control-allow-origin', options.origin === '*' && !options.credentials ? '*' : origin);
    if (options.origin !== '*') headers.append('vary', 'Origin');
    if (options.credentials) headers.set('access-control-allow-credentials', 'true');
  };

  const handle = async (request: Request, extra?: HandleExtra): Promise<Response> => {
    const origin = request.headers.get('origin');
    if (request.method === 'OPTIONS') {
      const headers = new Headers();
      if (origin !== null && originAllowed(origin)) {
        decorate(headers, origin);
        headers.set('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
        const requested = (request.headers.get('access-control-request-headers') ?? '')
          .split(',')
          .map((name) => name.trim().toLowerCase())
          .filter((name) => name !== '' && (allowed.has(name) || name.startsWith('mcp-param-')));
        headers.set('access-control-allow-headers', [...new Set([...ALLOWED_HEADERS, ...requested])].join(', '));
        headers.set('access-control-max-age', maxAge);
      }
      return new Response(null, { status: 204, headers });
    }
    const response = await handler.handle(request, extra);
    if (origin === null || !originAllowed(origin)) return response;
    const headers = new Headers(response.headers);
    decorate(headers, origin);
    headers.set('access-control-expose-headers', expose);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
  // Everything but `handle` is the wrapped handler's own (bound, since it may use private fields).
  return new Proxy(handler, {
    get(target, property) {
      if (property === 'handle') return handle;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
