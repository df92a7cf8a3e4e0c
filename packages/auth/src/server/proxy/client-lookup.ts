// Finding an MCP client by its client_id: registered here, or an https URL naming its Client ID Metadata Document.
// The URL comes from an unauthenticated caller, so the fetch is bounded (5 KiB, `upstreamTimeoutMs` for the whole
// exchange, no redirect) and never aimed at a literal private, loopback, link-local or unique-local address. A host
// name that resolves to one (DNS rebinding) is for the `fetch` option to refuse: see `@mcpkit/auth/node`.
import { isPublicHost } from '../../shared/address';

import { readLimitedText } from '../../shared/body';
import { type ClientMetadata, clientFromMetadata } from './client-metadata';
import { OAuthProxyError } from './errors';
import type { ProxyConfig } from './options';
import type { ProxyClient, ProxyState } from './records';

const MAX_METADATA_DOCUMENT_BYTES = 5 * 1024;
const METADATA_DOCUMENT_CACHE_SECONDS = 300;

/** True when `clientId` is a Client ID Metadata Document URL: https with a path (the draft forbids the bare origin). */
export function isMetadataDocumentUrl(clientId: string): boolean {
  if (!clientId.startsWith('https://')) return false;
  try {
    const url = new URL(clientId);
    return url.pathname !== '/' && url.hash === '';
  } catch {
    return false;
  }
}

async function fetchMetadataDocument(url: string, config: ProxyConfig): Promise<ProxyClient> {
  if (!isPublicHost(new URL(url).hostname)) {
    throw new OAuthProxyError(
      'ERR_CLIENT_METADATA',
      `The client metadata document URL ${url} names a private, loopback, link-local or reserved address: not fetched`,
      { url },
    );
  }
  let response: Response;
  const signal = AbortSignal.timeout(config.upstreamTimeoutMs);
  try {
    response = await config.fetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal });
  } catch (cause) {
    throw new OAuthProxyError(
      'ERR_CLIENT_METADATA',
      `Could not fetch the client metadata document ${url}`,
      { url },
      { cause },
    );
  }
  if (!response.ok) {
    throw new OAuthProxyError(
      'ERR_CLIENT_METADATA',
      `The client metadata document ${url} answered ${response.status}`,
      {
        url,
        status: response.status,
      },
    );
  }
  let text: string | undefined;
  try {
    text = await readLimitedText(response, MAX_METADATA_DOCUMENT_BYTES, signal);
  } catch (cause) {
    throw new OAuthProxyError(
      'ERR_CLIENT_METADATA',
      `The client metadata document ${url} was not read in time`,
      { url },
      { cause },
    );
  }
  let document: unknown;
  try {
    document = text === undefined ? undefined : JSON.parse(text);
  } catch {
    document = undefined;
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new OAuthProxyError(
      'ERR_CLIENT_METADATA',
      `The client metadata document ${url} is not a JSON object (at most 5 KiB)`,
      { url },
    );
  }
  const metadata = document as ClientMetadata;
  if (metadata.client_id !== url) {
    throw new OAuthProxyError(
      'ERR_CLIENT_METADATA',
      `The client metadata document's client_id must equal its URL ${url}`,
      {
        url,
        clientId: metadata.client_id,
      },
    );
  }
  // A metadata document cannot carry a shared secret; it is a public client.
  const checked = clientFromMetadata(metadata, config, 'none');
  if ('error' in checked || checked.token_endpoint_auth_method !== 'none') {
    throw new OAuthProxyError(
      'ERR_CLIENT_METADATA',
      `The client metadata document ${url} is unacceptable: ${'error' in checked ? checked.description : 'token_endpoint_auth_method must be none'}`,
      { url },
    );
  }
  return { client_id: url, source: 'cimd', ...checked };
}

/** Finds a client by id: registered here, or (for an https URL) from its metadata document, cached a few minutes. */
export async function findClient(
  clientId: string,
  config: ProxyConfig,
  state: ProxyState,
): Promise<ProxyClient | undefined> {
  if (config.clientIdMetadataDocuments && isMetadataDocumentUrl(clientId)) {
    const cached = await state.getMetadataDocumentClient(clientId);
    if (cached !== undefined) return cached;
    const client = await fetchMetadataDocument(clientId, config);
    await state.saveMetadataDocumentClient(client, METADATA_DOCUMENT_CACHE_SECONDS);
    return client;
  }
  return state.getClient(clientId);
}
