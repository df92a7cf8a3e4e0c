import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ClientCredentials, OAuthStore, PendingAuthorization, StoredTokens } from '@mcpkit/client/auth';

interface StoreFile {
  tokens: Record<string, StoredTokens>;
  clients: Record<string, ClientCredentials>;
  pending: Record<string, PendingAuthorization>;
}

/**
 * The OAuth client's state in one JSON file only its owner can read (mode 0600, in a 0700 folder): tokens per MCP
 * server, client registrations per authorization server, authorizations in progress. Written whole to a temporary file
 * and renamed, so a crash never leaves half a file. Read on every access, so two `mcpkit` processes see each other's
 * tokens.
 *
 * @example
 * const store = new FileOAuthStore(join(configFolder(), 'oauth.json'));
 * const oauth = new OAuthClient({ provider: { store, redirectUrl, redirectToAuthorization } });
 */
export class FileOAuthStore implements OAuthStore {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  getTokens(serverUrl: string): StoredTokens | undefined {
    return this.#read().tokens[serverUrl];
  }
  setTokens(serverUrl: string, tokens: StoredTokens | undefined): void {
    this.#update((file) => assign(file.tokens, serverUrl, tokens));
  }
  getClient(issuer: string): ClientCredentials | undefined {
    return this.#read().clients[issuer];
  }
  setClient(issuer: string, credentials: ClientCredentials | undefined): void {
    this.#update((file) => assign(file.clients, issuer, credentials));
  }
  getPending(state: string): PendingAuthorization | undefined {
    return this.#read().pending[state];
  }
  setPending(state: string, pending: PendingAuthorization | undefined): void {
    this.#update((file) => assign(file.pending, state, pending));
  }

  /** Forgets the tokens of every server URL that starts with `serverUrl`'s origin and path; resolves to how many. */
  forget(serverUrl: string): number {
    let count = 0;
    this.#update((file) => {
      for (const key of Object.keys(file.tokens)) {
        if (key === serverUrl || key.startsWith(serverUrl)) {
          delete file.tokens[key];
          count++;
        }
      }
    });
    return count;
  }

  #read(): StoreFile {
    try {
      const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<StoreFile>;
      return { tokens: parsed.tokens ?? {}, clients: parsed.clients ?? {}, pending: parsed.pending ?? {} };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { tokens: {}, clients: {}, pending: {} };
      throw new Error(
        `Cannot read the OAuth store ${this.path}: ${(error as Error).message} (delete it to start over)`,
      );
    }
  }

  #update(change: (file: StoreFile) => void): void {
    const file = this.#read();
    change(file);
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600); // the mode of writeFileSync is masked by the umask
    renameSync(temporary, this.path);
  }
}

function assign<T>(record: Record<string, T>, key: string, value: T | undefined): void {
  if (value === undefined) delete record[key];
  else record[key] = value;
}
