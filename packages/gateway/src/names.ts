// How a mount's names and URIs look downstream, and how they map back. Tools and prompts get `<namespace><sep><name>`
// (or a rename); resource URIs and templates get a scheme prefix `<namespace>+`, so a URI keeps its own scheme, stays a
// valid URI, and maps back by removing the prefix: nothing of the original is touched, so every URI round-trips exactly.

/** The characters a URI scheme may contain after its first letter (RFC 3986 §3.1). */
const SCHEME_SAFE = /^[a-z][a-z0-9.-]*$/;

/** The names and URIs of one mount, both ways. */
export class MountNames {
  readonly namespace: string;
  readonly separator: string;
  /** `<namespace>+`, or '' for an empty namespace (URIs pass through). */
  readonly uriPrefix: string;

  constructor(namespace: string, separator: string, uriPrefix?: string) {
    this.namespace = namespace;
    this.separator = separator;
    if (uriPrefix !== undefined) {
      this.uriPrefix = uriPrefix;
    } else if (namespace === '') {
      this.uriPrefix = '';
    } else {
      // Schemes are case-insensitive and may not hold "_": a namespace like `My_Files` becomes `my-files+`.
      const scheme = namespace.toLowerCase().replace(/[^a-z0-9.-]/g, '-');
      if (!SCHEME_SAFE.test(scheme)) {
        throw new RangeError(
          `mount '${namespace}': the namespace cannot start a URI scheme (it must begin with a letter); pass options.uriPrefix`,
        );
      }
      this.uriPrefix = `${scheme}+`;
    }
  }

  /** The downstream name of an upstream tool or prompt (`renames` win). */
  exposed(name: string, renames: Readonly<Record<string, string>> | undefined): string {
    if (renames !== undefined && Object.hasOwn(renames, name)) return renames[name] as string;
    return this.namespace === '' ? name : `${this.namespace}${this.separator}${name}`;
  }

  /** The downstream URI (or URI template) of an upstream one. */
  uri(upstream: string): string {
    return this.uriPrefix + upstream;
  }

  /** The upstream URI of a downstream one, or `undefined` when it does not belong to this mount. */
  upstreamUri(downstream: string): string | undefined {
    return downstream.startsWith(this.uriPrefix) ? downstream.slice(this.uriPrefix.length) : undefined;
  }
}
