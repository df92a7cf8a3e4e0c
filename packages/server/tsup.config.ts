import { packageBuild } from '../../tsup.base';

// `cluster` is the transports' scale-out plumbing, off the root entry.
export default packageBuild({ index: 'src/index.ts', 'cluster/index': 'src/cluster.ts' });
