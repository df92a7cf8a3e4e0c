// The contract suite under node:test (run by test/runners.test.ts with `node --test`): describeTransport takes
// node:test's describe and it as they are.
import { describe, it } from 'node:test';
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { describeTransport } from '@mcpkit/testing';

describeTransport(
  'in-memory under node:test',
  () => {
    const [client, server] = createLinkedTransports();
    return { client, server };
  },
  { describe, it },
);
