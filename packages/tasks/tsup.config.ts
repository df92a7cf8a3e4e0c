import { packageBuild } from '../../tsup.base';

// The root entry runs anywhere; `sqlite` loads its driver (`node:sqlite` or better-sqlite3) at run time, external.
export default packageBuild(
  {
    index: 'src/index.ts',
    'sqlite/index': 'src/sqlite/index.ts',
    'store/index': 'src/store/index.ts',
    'server/index': 'src/server/index.ts',
    'client/index': 'src/client/index.ts',
  },
  { external: [/^node:/, 'better-sqlite3'], removeNodeProtocol: false },
);
