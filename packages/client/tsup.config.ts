import { packageBuild } from '../../tsup.base';

// `auth` is the OAuth 2.1 client (fetch + WebCrypto, runs anywhere); a subpath so clients without auth never load it.
export default packageBuild({ index: 'src/index.ts', 'auth/index': 'src/auth/index.ts' });
