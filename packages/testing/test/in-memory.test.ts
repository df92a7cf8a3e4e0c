// The in-memory transport of @mcpkit/jsonrpc-core against the contract, through describeTransport as a user would.
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { describe, it } from 'vitest';
import { PairTransport } from '../../jsonrpc-core/test/readme/pair-transport';
import { describeTransport } from '../src/index';

describeTransport(
  'in-memory (createLinkedTransports)',
  () => {
    const [client, server] = createLinkedTransports({ second: { messageInfo: { request: { url: 'memory:' } } } });
    return { client, server };
  },
  {
    describe,
    it,
    capabilities: {
      messageInfo: (info) => {
        if (info?.request?.url !== 'memory:')
          throw new Error(`expected the configured messageInfo, got ${String(info)}`);
      },
    },
  },
);

// The transport written from scratch in @mcpkit/jsonrpc-core's README (its test/readme/pair-transport.ts): the guide's
// own example keeps the contract it teaches.
describeTransport(
  'PairTransport (the jsonrpc-core README example)',
  () => {
    const [client, server] = PairTransport.pair();
    return { client, server };
  },
  { describe, it },
);
