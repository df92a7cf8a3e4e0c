/** The parameters of a `Bearer` challenge (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallenge {
  /** Where the client finds the protected resource metadata (RFC 9728). */
  resourceMetadata?: string;
  /** `invalid_request`, `invalid_token` or `insufficient_scope`; absent when the request had no credentials. */
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  errorDescription?: string;
  /** The scopes the request needs. */
  scope?: readonly string[];
}

/** RFC 6750 allows only %x20-21 / %x23-5B / %x5D-7E in error_description: drop the rest rather than fail. */
function descriptionText(value: string): string {
  return value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '');
}

function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * The value of a `WWW-Authenticate` header for a Bearer challenge.
 *
 * @example
 * formatBearerChallenge({ resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp', scope: ['files:read'] });
 * // 'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="files:read"'
 */
export function formatBearerChallenge(challenge: BearerChallenge): string {
  const parts: string[] = [];
  if (challenge.error !== undefined) parts.push(`error=${quoted(challenge.error)}`);
  if (challenge.errorDescription !== undefined) {
    parts.push(`error_description=${quoted(descriptionText(challenge.errorDescription))}`);
  }
  if (challenge.resourceMetadata !== undefined) parts.push(`resource_metadata=${quoted(challenge.resourceMetadata)}`);
  if (challenge.scope !== undefined && challenge.scope.length > 0) {
    parts.push(`scope=${quoted(challenge.scope.join(' '))}`);
  }
  return parts.length === 0 ? 'Bearer' : `Bearer ${parts.join(', ')}`;
}
