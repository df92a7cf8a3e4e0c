// Finding a client by its client_id: registered (DCR or pre-registered), or an https URL naming its Client ID Metadata
// Document (draft-ietf-oauth-client-id-metadata-document, which MCP 2025-11-25 prefers to DCR). The document is
// fetched (never from a literal private address, at most 5 KiB, within a timeout), checked and kept five minutes.
import { isPublicHost, readLimitedText } from '@mcpkit/auth';
import { redirectUriAllowed } from './registration';
import type { Client, ServerState } from './server-state';

const MAX_DOCUMENT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;

/** Why a metadata document was refused: the /authorize error page shows it (the redirect URI is not trusted yet). */
export class ClientMetadataError extends Error {
  override name = 'ClientMetadataError';
}

/** True for an https URL with a path and no fragment: the draft's form of a metadata document client_id. */
export function isMetadataDocumentUrl(clientId: string): boolean {
  if (!clientId.startsWith('https://')) return false;
  try {
    const url = new URL(clientId);
    return url.pathname !== '/' && url.hash === '';
  } catch {
    return false;
  }
}

// Whoever calls /authorize picks this URL. How its fetch failed (refused, timed out, which status an internal address
// answered) is not theirs to learn, so every such failure reads the same; what a fetched document says wrong is shown.
const NOT_VERIFIED = 'The client could not be verified (its client metadata document could not be fetched).';

async function readDocument(url: string, state: ServerState): Promise<Record<string, unknown>> {
  if (!isPublicHost(new URL(url).hostname)) throw new ClientMetadataError(NOT_VERIFIED);
  const fetchDocument = state.options.fetchClientMetadata ?? fetch;
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  let text: string | undefined;
  try {
    const response = await fetchDocument(url, { headers: { accept: 'application/json' }, redirect: 'error', signal });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new ClientMetadataError(NOT_VERIFIED);
    }
    // Bounded while reading: a document streamed without a length stops at the first byte past 5 KiB.
    text = await readLimitedText(response, MAX_DOCUMENT_BYTES, signal);
  } catch (cause) {
    throw new ClientMetadataError(NOT_VERIFIED, { cause });
  }
  if (text === undefined) throw new ClientMetadataError(`The client metadata document ${url} is larger than 5 KiB`);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    document = undefined;
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new ClientMetadataError(`The client metadata document ${url} is not a JSON object`);
  }
  return document as Record<string, unknown>;
}

/**
 * The client `clientId` names, or undefined when there is none. A metadata document must name itself as
 * `client_id`, list acceptable `redirect_uris`, and be a public client (a document cannot carry a shared secret).
 */
export async function findClient(clientId: string, state: ServerState): Promise<Client | undefined> {
  const registered = state.clients.get(clientId);
  if (registered !== undefined || !isMetadataDocumentUrl(clientId)) return registered;
  const cached = state.metadataClients.get(clientId);
  if (cached !== undefined) return cached;
  const document = await readDocument(clientId, state);
  if (document.client_id !== clientId) {
    throw new ClientMetadataError(`The client metadata document's client_id must be its own URL, ${clientId}`);
  }
  const uris = document.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every(redirectUriAllowed)) {
    throw new ClientMetadataError(
      `The client metadata document ${clientId} needs redirect_uris: https URLs, or http on 127.0.0.1 / localhost`,
    );
  }
  const method = document.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') {
    throw new ClientMetadataError(
      `The client metadata document ${clientId} must declare token_endpoint_auth_method none (a public client)`,
    );
  }
  const client: Client = { client_id: clientId, redirect_uris: uris as string[] };
  if (typeof document.client_name === 'string') client.client_name = document.client_name.slice(0, 100);
  state.metadataClients.set(clientId, client);
  return client;
}
