import { packageBuild } from '../../tsup.base';

// The root entry runs anywhere; `node` opens stdio upstreams (node:child_process through @mcpkit/transport-stdio).
export default packageBuild(
  { index: 'src/index.ts', 'node/index': 'src/node/index.ts' },
  { external: [/^node:/], removeNodeProtocol: false },
);
