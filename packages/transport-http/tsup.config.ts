import { packageBuild } from '../../tsup.base';

// The root entry runs anywhere; `node` and `express` are the Node adapters (their `node:` imports stay external).
export default packageBuild(
  { index: 'src/index.ts', 'node/index': 'src/node/index.ts', 'express/index': 'src/express/index.ts' },
  { external: [/^node:/, 'express'], removeNodeProtocol: false },
);
