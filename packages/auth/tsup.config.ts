import { packageBuild } from '../../tsup.base';

// The root entry (shared shapes), the client and the server are separate entries: a client pays nothing for the
// resource-server code and the other way round. `/node` holds the Node-only helpers (node:child_process, node:dns).
export default packageBuild(
  {
    index: 'src/index.ts',
    'client/index': 'src/client/index.ts',
    'server/index': 'src/server/index.ts',
    'node/index': 'src/node/index.ts',
  },
  { external: [/^node:/], removeNodeProtocol: false },
);
