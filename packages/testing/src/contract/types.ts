import type { MessageInfo, Transport } from '@mcpkit/jsonrpc-core';

/**
 * The two ends of one channel, fresh for each check. `client` is the end that opens the channel (the one a `Client`
 * would connect to), `server` the end that accepts it. Neither is started: the suite sets the callback slots and calls
 * `start()` on the server end, then on the client end, as `JsonRpcPeer.connect` would.
 *
 * @example
 * const makePair = (): TransportPair => {
 *   const [client, server] = createLinkedTransports();
 *   return { client, server };
 * };
 */
export interface TransportPair {
  /** The end that opens the channel. */
  client: Transport;
  /** The end that accepts it. */
  server: Transport;
  /**
   * Makes a frame the server end cannot parse arrive at it (write a malformed line to the raw stream, send a text
   * frame that is not JSON). Called after both ends started, by the bad-frame check (declared with
   * `capabilities.invalidFrames`).
   */
  injectInvalidFrame?: () => void | Promise<void>;
  /** Releases what the pair holds besides its two ends (a listening socket, a child process). Called after each check. */
  dispose?: () => void | Promise<void>;
}

/** Makes a fresh pair for one check. */
export type MakeTransportPair = () => TransportPair | Promise<TransportPair>;

/**
 * What the transport under test can do; a check that needs what it cannot do is skipped (listed with a reason by
 * `transportContractCases`, skipped by `describeTransport`). Defaults describe a full-duplex channel such as stdio or
 * WebSocket.
 */
export interface TransportCapabilities {
  /**
   * Whether the server end can send a message that answers nothing (a server→client request or notification outside
   * any request). False for one request, one response transports (HTTP 2026-07-28). Default `true`.
   */
  serverInitiated?: boolean;
  /** Whether `close()` on the server end closes the channel for the client too. Default `true`. */
  serverCloses?: boolean;
  /**
   * Whether the server end learns that the client closed (its `onclose` runs). False when the server end has no
   * channel of its own to lose (HTTP 2026-07-28: every request stands alone). Default `true`.
   */
  closeReachesServer?: boolean;
  /**
   * Whether the client end implements `cancelsBySignal` for the suite's requests: aborting the `signal` of the send
   * options must then abort the `signal` of the `MessageInfo` the server end delivered with that request. Default
   * `false`.
   */
  cancelsBySignal?: boolean;
  /**
   * Checks the `MessageInfo` the server end attaches to each message it delivers (throw when it is not what the
   * transport promises, e.g. HTTP request headers). Without it the suite only checks that the info, when present, is
   * an object.
   */
  messageInfo?: (info: MessageInfo | undefined) => void;
  /**
   * Whether the pair can inject a frame the server end cannot parse (`TransportPair.injectInvalidFrame`): the suite
   * then checks that it is reported through `onerror` and that the channel stays open. Default `false`.
   */
  invalidFrames?: boolean;
}

/** Options for `transportContractCases` and `describeTransport`. */
export interface TransportContractOptions {
  /** What the transport can do. */
  capabilities?: TransportCapabilities;
  /**
   * Merged into the params of every request and notification the suite sends: a transport that only carries one
   * protocol's messages (HTTP 2026-07-28 needs the `_meta` envelope) gets messages it accepts. Default none.
   */
  params?: Record<string, unknown>;
  /** How many bytes of text the large-message check sends each way. Default 1 MiB. */
  largeMessageBytes?: number;
  /** How many requests the many-in-flight check keeps in flight at once. Default 200. */
  inFlight?: number;
  /** How long a check waits for an expected event before it fails with what it was waiting for. Default 5000 ms. */
  timeoutMs?: number;
}

/** One check of the suite, for any test runner: `await run()` resolves when it passes and throws when it fails. */
export interface ContractCase {
  /** What the check asserts, as a test name. */
  name: string;
  /** Why the check does not apply to this transport, when it does not (then `run` resolves at once). */
  skip?: string;
  /** Runs the check on a fresh pair. */
  run(): Promise<void>;
}
