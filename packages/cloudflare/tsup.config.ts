import { packageBuild } from '../../tsup.base';

// One entry, web-standard APIs only: it runs in workerd (no Node built-in, no `cloudflare:` import).
export default packageBuild({ index: 'src/index.ts' });
