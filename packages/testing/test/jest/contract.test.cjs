// The contract suite under jest, as a jest user writes it: CommonJS, jest's global describe and it, the published
// (built) packages. test/runners.test.ts runs jest on this folder and reads its JSON report.
const { describeTransport } = require('@mcpkit/testing');
const { createLinkedTransports } = require('@mcpkit/jsonrpc-core');

describeTransport(
  'in-memory, under jest',
  () => {
    const [client, server] = createLinkedTransports();
    return { client, server };
  },
  { describe, it },
);
