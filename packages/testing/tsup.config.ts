import { packageBuild } from '../../tsup.base';

// Both entries run anywhere: the official schemas the wire checker needs are bundled into the package as modules
// (src/wire/schemas, made by scripts/sync-schemas.mjs), so it reads no file at run time.
export default packageBuild({ index: 'src/index.ts', 'wire/index': 'src/wire/index.ts' }, { external: ['ajv'] });
