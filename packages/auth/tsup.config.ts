import { packageBuild } from '../../tsup.base';

// The root entry (shared shapes), the client and the server are separate entries: a client pays nothing for the
// resource-server code and the other way round.
export default packageBuild({
  index: 'src/index.ts',
  'client/index': 'src/client/index.ts',
  'server/index': 'src/server/index.ts',
});
