// RFC 9110 §11.6.1 challenges, as servers send them in `WWW-Authenticate` (RFC 6750 §3 for Bearer, RFC 9728 §5.1 for
// `resource_metadata`). Several challenges may share one header, separated by commas like their parameters.

/** What a `Bearer` challenge says (RFC 6750 §3, RFC 9728 §5.1). Absent parameters are undefined. */
export interface BearerChallenge {
  /** RFC 9728: where the protected resource metadata is. */
  resourceMetadata?: string;
  /** The scope the request needs (space-separated). */
  scope?: string;
  /** `invalid_request`, `invalid_token` or `insufficient_scope`. */
  error?: string;
  errorDescription?: string;
  /** Every parameter by lower-cased name, for extensions. */
  params: Readonly<Record<string, string>>;
}

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*/y;
const SPACE = /[ \t]*/y;

interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

function match(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

function skipSpace(text: string, at: number): number {
  return at + (match(SPACE, text, at)?.length ?? 0);
}

function readQuoted(text: string, at: number): [string, number] {
  let value = '';
  let i = at + 1;
  while (i < text.length && text[i] !== '"') {
    if (text[i] === '\\' && i + 1 < text.length) i++;
    value += text[i];
    i++;
  }
  return [value, i + 1];
}

/** Parses every challenge of a `WWW-Authenticate` value; malformed tails are dropped, never thrown on. */
function parseChallenges(header: string): Challenge[] {
  const challenges: Challenge[] = [];
  let current: Challenge | undefined;
  let i = 0;
  while (i < header.length) {
    i = skipSpace(header, i);
    if (header[i] === ',') {
      i++;
      continue;
    }
    const name = match(TOKEN, header, i);
    if (name === undefined) break;
    const after = skipSpace(header, i + name.length);
    if (header[after] === '=' && current !== undefined) {
      // An auth-param of the current challenge.
      let at = skipSpace(header, after + 1);
      let value: string;
      if (header[at] === '"') [value, at] = readQuoted(header, at);
      else {
        value = match(TOKEN, header, at) ?? '';
        at += value.length;
      }
      current.params[name.toLowerCase()] = value;
      i = at;
      continue;
    }
    // A new challenge: a scheme, optionally followed by a token68 that is not a parameter name.
    current = { scheme: name.toLowerCase(), params: {} };
    challenges.push(current);
    i = after;
    const token68 = match(TOKEN68, header, i);
    if (token68 !== undefined) {
      const next = header[skipSpace(header, i + token68.length)];
      if (next === undefined || next === ',') i += token68.length;
    }
  }
  return challenges;
}

/**
 * Reads the `Bearer` challenge of a `WWW-Authenticate` header (the first one when a server sends several).
 *
 * @example
 * ```ts
 * parseBearerChallenge('Bearer error="insufficient_scope", scope="files:read files:write"')?.scope;
 * // 'files:read files:write'
 * ```
 */
export function parseBearerChallenge(header: string | null | undefined): BearerChallenge | undefined {
  return parseChallengeOf(header, 'bearer');
}

/**
 * Reads the challenge of `scheme` (lower case): the same parameters as a Bearer challenge. A DPoP resource server
 * (RFC 9449 §7.1) may challenge with `DPoP` alone, carrying `resource_metadata`, `scope` and `error` there.
 */
export function parseChallengeOf(header: string | null | undefined, scheme: string): BearerChallenge | undefined {
  if (header === null || header === undefined || header === '') return undefined;
  const found = parseChallenges(header).find((challenge) => challenge.scheme === scheme);
  if (found === undefined) return undefined;
  const { params } = found;
  return {
    resourceMetadata: params.resource_metadata,
    scope: params.scope,
    error: params.error,
    errorDescription: params.error_description,
    params,
  };
}
