import { packageBuild } from '../../tsup.base';

// Node only: the bin and its run() entry use node:child_process, node:fs and the terminal.
export default packageBuild(
  { index: 'src/index.ts', bin: 'src/bin.ts' },
  { external: [/^node:/], removeNodeProtocol: false, platform: 'node' },
);
