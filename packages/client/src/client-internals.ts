// What `Client` reaches inside the `LeanClient` it extends (set by `LeanClient`'s static block, which may read its
// private fields): types only, so `Client` installs its features without `LeanClient` exposing them.
import type { Router } from '@mcpkit/jsonrpc-core';
import type { CancellationPolicy } from './cancellation';
import type { Connection } from './eras/client-era';
import type { ClientFeatures } from './inbound';
import type { ListKind } from './lists';
import type { CallOptions } from './options';
import type { Warnings } from './warnings';

/** What `Client` reaches inside the `LeanClient` it extends to install its features (package-internal). */
export interface LeanClientInternals {
  /** Where the features go; the client's close and change handlers read them. */
  readonly features: ClientFeatures;
  /** The client's own handlers of server messages (the listen streams' acknowledgements and ends go here). */
  readonly own: Router;
  readonly cancellation: CancellationPolicy;
  /** `requestTimeoutMs`, resolved. */
  readonly timeoutMs: number;
  readonly warnings: Warnings;
  /** Sends a request through the client's pipeline. */
  readonly call: (method: string, params: object | undefined, options?: CallOptions) => Promise<unknown>;
  /** `listAll*` of `kind`. */
  readonly walk: (kind: ListKind, options: CallOptions | undefined) => Promise<unknown[]>;
  /** The live connection, or `ERR_NOT_CONNECTED` naming `method`. */
  readonly connection: (method: string) => Connection;
}
