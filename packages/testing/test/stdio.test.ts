// The stdio transport against the contract: StdioServerTransport on a pair of pipes, and at the other end the
// StreamTransport that StdioClientTransport runs over a child process's pipes (in process here, so the suite can
// drive both ends). A stdio channel closes by its pipes ending: StdioClientTransport.close() ends the child's stdin,
// and a server's stdout ends when its process exits. StreamTransport.close() itself leaves its output stream open
// (process.stdout must not be ended by a library), so each end here ends its pipe after close(), as the process
// boundary would.
import { PassThrough } from 'node:stream';
import { StdioServerTransport, StreamTransport } from '@mcpkit/transport-stdio';
import { describe, it } from 'vitest';
import { describeTransport } from '../src/index';

let toServer: PassThrough;

function endsPipeOnClose<T extends StreamTransport>(transport: T, output: PassThrough): T {
  const close = transport.close.bind(transport);
  transport.close = async () => {
    await close();
    output.end();
  };
  return transport;
}

describeTransport(
  'stdio',
  () => {
    toServer = new PassThrough();
    const toClient = new PassThrough();
    const server = endsPipeOnClose(
      new StdioServerTransport({ stdin: toServer, stdout: toClient, stderr: null }),
      toClient,
    );
    const client = endsPipeOnClose(new StreamTransport({ input: toClient, output: toServer }), toServer);
    return {
      client,
      server,
      injectInvalidFrame: () => {
        toServer.write('this is not json\n');
      },
    };
  },
  { describe, it, capabilities: { invalidFrames: true } },
);
