// @mcpkit/testing: the transport contract suite, in-memory connections and wire transcripts. Runs anywhere (no Node
// built-in). The wire checker, which carries the official schemas, is the `/wire` subpath.
export { type ConnectInMemoryOptions, connectInMemory, type InMemoryConnection } from './connect-in-memory';
export { type AcceptedEnd, acceptedEnd } from './contract/accepted-end';
export { transportContractCases } from './contract/checks';
export {
  type DescribeFunction,
  type DescribeTransportOptions,
  describeTransport,
  type ItFunction,
} from './contract/describe-transport';
export { TransportContractError } from './contract/harness';
export type {
  ContractCase,
  MakeTransportPair,
  TransportCapabilities,
  TransportContractOptions,
  TransportPair,
} from './contract/types';
export { type TranscriptEntry, type TranscriptFormatOptions, WireTranscript } from './transcript';
