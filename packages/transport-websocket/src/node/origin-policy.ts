import type { AddressInfo } from 'node:net';

// Cross-site WebSocket hijacking and DNS rebinding: a page on evil.example can open a WebSocket to a server on
// 127.0.0.1 (browsers apply no same-origin policy to WebSockets), but it cannot hide its Origin. Browsers always send
// Origin on a WebSocket handshake; clients without one (Node, CLIs) are not browsers and are not affected.

const LOCAL_HOSTNAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a bound address is a loopback one (127.0.0.0/8, ::1, or an IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string | AddressInfo | null): boolean {
  if (address === null || typeof address === 'string') return typeof address === 'string'; // a pipe: local by nature
  const host = address.address;
  return host === '::1' || host.startsWith('127.') || host.startsWith('::ffff:127.') || host === 'localhost';
}

function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.host;
  } catch {
    return undefined;
  }
}

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * Decides whether a handshake's `Origin` may connect.
 *
 * - `allowedOrigins` given: exactly those origins (as browsers send them, e.g. `https://app.example.com`).
 * - Default, bound to a loopback address: local origins only (`http://localhost:5173`, `http://127.0.0.1:*`, …).
 * - Default, bound elsewhere: same-origin only (the Origin's host equals the `Host` header).
 * - No `Origin` header: allowed (not a browser).
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowedOrigins: ReadonlySet<string> | undefined,
  boundToLoopback: boolean,
): boolean {
  if (origin === undefined) return true;
  const lower = origin.toLowerCase();
  if (allowedOrigins !== undefined) return allowedOrigins.has(lower);
  const fromHost = originHost(lower);
  if (fromHost === undefined) return false;
  if (boundToLoopback) return LOCAL_HOSTNAMES.has(hostnameOf(fromHost));
  return host !== undefined && fromHost === host.toLowerCase();
}
