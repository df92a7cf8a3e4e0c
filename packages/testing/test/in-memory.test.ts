// The in-memory transport of @mcpkit/jsonrpc-core against the contract, through describeTransport as a user would.
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { describe, it } from 'vitest';
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
