// The Unix socket transport against @mcpkit/testing's contract suite: the check a plugin author runs.
import { randomUUID } from 'node:crypto';
import { acceptedEnd, describeTransport } from '@mcpkit/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  listenOnUnixSocket,
  socketPath,
  UnixSocketClientTransport,
  type UnixSocketListener,
  type UnixSocketTransport,
} from '../src/index';

let listener: UnixSocketListener;
let accept: ((transport: UnixSocketTransport) => void) | undefined;

beforeAll(async () => {
  listener = await listenOnUnixSocket(socketPath(`mcp-contract-${randomUUID()}`), (transport) => accept?.(transport));
});
afterAll(() => listener.close());

describeTransport(
  'Unix domain socket',
  () => {
    const server = acceptedEnd<UnixSocketTransport>();
    accept = (transport) => server.arrive(transport);
    return { client: new UnixSocketClientTransport(listener.path), server };
  },
  {
    describe,
    it,
    capabilities: {
      messageInfo: (info) => {
        if (!info?.request?.url?.startsWith('unix:')) throw new Error('the server end did not say which socket');
      },
    },
  },
);
