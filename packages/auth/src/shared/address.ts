// Where a URL points, judged from its literal host: the one check a library can make in every runtime (a browser or a
// Worker cannot resolve names). The WHATWG URL parser has already normalised the host: `http://2130706433/`,
// `http://0177.0.0.1/` and `http://0x7f.1/` all read `127.0.0.1`, and IPv6 is compressed and lower-cased inside
// brackets, so the checks below see one spelling of each address. A host *name* is "name": whether it resolves to a
// private address (DNS rebinding) is for the app's `fetch` to check (see `@mcpkit/auth/node`'s resolving fetch).

/** What a URL's host is, for the outbound rules: only `public` and `name` are reachable without the app opting in. */
export type HostKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  /** Unspecified, multicast, broadcast, documentation, benchmarking and other reserved ranges. */
  | 'reserved'
  | 'public'
  /** A DNS name: its addresses are unknown here. */
  | 'name';

function ipv4Kind(a: number, b: number, c: number): HostKind {
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT, RFC 6598
  if (a === 169 && b === 254) return 'link-local'; // includes the cloud metadata address 169.254.169.254
  if (a === 0 || a >= 224) return 'reserved'; // "this network", multicast, reserved, broadcast
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved'; // IETF protocol assignments, TEST-NET-1
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // benchmarking
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'reserved'; // TEST-NET-2/3
  return 'public';
}

function parseIpv4(host: string): [number, number, number, number] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : Number.NaN));
  return bytes.every((byte) => byte >= 0 && byte <= 255) ? (bytes as [number, number, number, number]) : undefined;
}

/** The 8 groups of an IPv6 address (a dotted IPv4 tail read as two groups), or undefined when it is not one. */
function parseIpv6(host: string): number[] | undefined {
  let text = host;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const v4 = parseIpv4(dotted[1]!);
    if (v4 === undefined) return undefined;
    const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
    text = `${text.slice(0, dotted.index)}${hex(v4[0], v4[1])}:${hex(v4[2], v4[3])}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const read = (part: string) => (part === '' ? [] : part.split(':'));
  const head = read(halves[0]!);
  const rest = halves.length === 2 ? read(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return undefined;
  const groups = [...head, ...new Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.map((group) => Number.parseInt(group, 16));
}

function ipv6Kind(g: number[]): HostKind {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  const v4 = () => ipv4Kind(g6 >> 8, g6 & 0xff, g7 >> 8);
  if (zeroTo(7) && g7 === 1) return 'loopback'; // ::1
  if (zeroTo(8)) return 'reserved'; // ::
  if (zeroTo(5) && g5 === 0xffff) return v4(); // IPv4-mapped ::ffff:a.b.c.d
  if (zeroTo(6)) return v4(); // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(); // NAT64 64:ff9b::/96
  if (g0 === 0x2002) return ipv4Kind(g1 >> 8, g1 & 0xff, g2 >> 8); // 6to4 embeds an IPv4 address
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local'; // fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // fec0::/10, the deprecated site-local range
  if ((g0 & 0xff00) === 0xff00) return 'reserved'; // multicast
  if (g0 === 0x2001 && g1 === 0xdb8) return 'reserved'; // documentation
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved'; // discard-only
  return 'public';
}

/**
 * What the host of a parsed URL is: `url.hostname` as the URL parser left it (IPv6 in brackets).
 *
 * @example
 * ```ts
 * import { classifyHost } from '@mcpkit/auth';
 * classifyHost(new URL('http://0177.0.0.1/').hostname); // 'loopback'
 * classifyHost(new URL('http://[::ffff:169.254.169.254]/').hostname); // 'link-local'
 * classifyHost('auth.example.com'); // 'name'
 * ```
 */
export function classifyHost(hostname: string): HostKind {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') && host.endsWith(']')) {
    const groups = parseIpv6(host.slice(1, -1).replace(/%.*$/, ''));
    return groups === undefined ? 'reserved' : ipv6Kind(groups);
  }
  const v4 = parseIpv4(host);
  if (v4 !== undefined) return ipv4Kind(v4[0], v4[1], v4[2]);
  // RFC 6761: localhost and its subdomains are loopback by definition, whatever a resolver says.
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host === '' || !/[a-z]/.test(host.split('.').pop() ?? '')) return 'reserved'; // numeric-looking but not an IP
  return 'name';
}

/**
 * True when the host is not a literal private, loopback, link-local, unique-local or reserved address.
 *
 * @example
 * ```ts
 * isPublicHost('169.254.169.254'); // false
 * ```
 */
export function isPublicHost(hostname: string): boolean {
  const kind = classifyHost(hostname);
  return kind === 'public' || kind === 'name';
}
