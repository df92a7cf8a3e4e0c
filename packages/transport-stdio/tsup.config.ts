import { packageBuild } from '../../tsup.base';

// Node only: spawns processes and reads process.stdin.
export default packageBuild({ index: 'src/index.ts' }, { platform: 'node', target: 'node20' });
