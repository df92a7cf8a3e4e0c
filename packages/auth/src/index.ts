// @mcpkit/auth: what both sides of MCP authorization share — the OAuth metadata types, PKCE, crypto-random tokens and
// digests, the bounded body reader and the outbound URL rules. Runs anywhere (WebCrypto, fetch), no Node built-in.
// The client is @mcpkit/auth/client, the resource server and the OAuth proxy @mcpkit/auth/server.

export type { AuthorizationServerMetadata, ProtectedResourceMetadata } from '@mcpkit/protocol';
export { classifyHost, type HostKind, isPublicHost } from './shared/address';
export { type BodySource, readLimitedText } from './shared/body';
export { createPkcePair, isS256Challenge, type PkcePair, verifyPkce } from './shared/pkce';
export { randomToken, sha256Base64Url, timingSafeEqual } from './shared/random';
