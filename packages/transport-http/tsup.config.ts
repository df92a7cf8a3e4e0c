import { packageBuild } from '../../tsup.base';

// `client` and `server` run anywhere (the root re-exports both, deprecated); `node` and `express` are the Node adapters
// (their `node:` imports stay external).
export default packageBuild(
  {
    index: 'src/index.ts',
    'client/index': 'src/client/index.ts',
    'server/index': 'src/server/index.ts',
    'node/index': 'src/node/index.ts',
    'express/index': 'src/express/index.ts',
  },
  { external: [/^node:/, 'express', '@mcpkit/server'], removeNodeProtocol: false },
);
