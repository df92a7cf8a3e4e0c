// The postMessage transport of @mcpkit/apps (what an MCP App's host and view talk over) against the contract, over a
// MessageChannel: the same ports a Web Worker or an iframe's transferred port give. A port has no close signal of its
// own, so neither end learns that the other closed.
import { PostMessageTransport } from '@mcpkit/apps/post-message';
import { describe, it } from 'vitest';
import { describeTransport } from '../src/index';

describeTransport(
  'postMessage (@mcpkit/apps, over a MessageChannel)',
  () => {
    const { port1, port2 } = new MessageChannel();
    return {
      client: new PostMessageTransport({ target: port1 }),
      server: new PostMessageTransport({ target: port2 }),
      // What a hostile or broken view might post: not JSON-RPC at all.
      injectInvalidFrame: () => port1.postMessage({ jsonrpc: '1.0', nonsense: true }),
      dispose: () => {
        port1.close();
        port2.close();
      },
    };
  },
  { describe, it, capabilities: { serverCloses: false, closeReachesServer: false, invalidFrames: true } },
);
