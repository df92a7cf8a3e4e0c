import { packageBuild } from '../../tsup.base';

// `validation` holds the hand-written per-revision validators (about 50 KiB minified): a subpath, so servers and
// clients that never validate whole messages do not carry them.
export default packageBuild({ index: 'src/index.ts', 'validation/index': 'src/validation/index.ts' });
