import { packageBuild } from '../../tsup.base';

// Three entries: the HTTP scale-out stores and the bus at the root, the task store and the rate-limit store on their
// own subpaths (so an app that uses neither needs neither @mcpkit/tasks nor @mcpkit/middleware). ioredis stays external.
export default packageBuild(
  { index: 'src/index.ts', 'tasks/index': 'src/tasks/index.ts', 'rate-limit/index': 'src/rate-limit/index.ts' },
  { external: [/^node:/, 'ioredis'], removeNodeProtocol: false },
);
