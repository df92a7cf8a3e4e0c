import { packageBuild } from '../../tsup.base';

// The root entry runs anywhere (WebCrypto digests, no Node built-in); `node` reads skills from disk (node:fs, external).
export default packageBuild(
  {
    index: 'src/index.ts',
    'node/index': 'src/node/index.ts',
    'server/index': 'src/server/index.ts',
    'client/index': 'src/client/index.ts',
  },
  { external: [/^node:/], removeNodeProtocol: false },
);
