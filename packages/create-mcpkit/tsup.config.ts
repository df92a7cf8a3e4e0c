import { packageBuild } from '../../tsup.base';

// Node only: it runs `mcpkit init`.
export default packageBuild(
  { index: 'src/index.ts', bin: 'src/bin.ts' },
  { external: [/^node:/, /^@mcpkit\//], removeNodeProtocol: false, platform: 'node' },
);
