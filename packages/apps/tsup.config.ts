import { packageBuild } from '../../tsup.base';

// Four entries that run anywhere: the server (root), the host bridge and the view (browser), the postMessage transport.
export default packageBuild({
  index: 'src/index.ts',
  'host/index': 'src/host/index.ts',
  'view/index': 'src/view/index.ts',
  'post-message-transport': 'src/post-message-transport.ts',
});
