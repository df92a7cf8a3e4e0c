import { packageBuild } from '../../tsup.base';

// The root entry (the client) runs anywhere; `node` is the ws server (its `node:` imports and ws stay external).
export default packageBuild(
  { index: 'src/index.ts', 'node/index': 'src/node/index.ts' },
  { external: [/^node:/, 'ws'], removeNodeProtocol: false },
);
