// What an era object needs of the client that built it (`Client` builds one of each era): who the client is, its
// request pipeline.
import type { ClientCapabilities, Implementation } from '@mcpkit/protocol';
import type { CallOptions } from '../options';

/** The client as its era objects see it. */
export interface ClientEraHost {
  /** What the client says it is (`clientInfo`). */
  readonly info: Implementation;
  /** What the client declares (`clientCapabilities`). */
  readonly capabilities: ClientCapabilities;
  /** Sends a request through the client's pipeline (checks, envelope, middleware). */
  call(method: string, params: object | undefined, options?: CallOptions): Promise<unknown>;
}
