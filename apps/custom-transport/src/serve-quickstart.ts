// Serves apps/quickstart's trattoria over a Unix socket (a named pipe on Windows) instead of stdio:
//   npx tsx --conditions=@mcpkit/source src/serve-quickstart.ts [socket-name]
// then point a client at it (see README.md).
import { server } from '@mcpkit/app-quickstart/server';
import { listenOnUnixSocket, socketPath } from './unix-socket-transport';

const listener = await listenOnUnixSocket(socketPath(process.argv[2] ?? 'trattoria'), (transport) =>
  server.connect(transport),
);
console.error(`trattoria: listening on ${listener.path}`);
process.once('SIGINT', () => void listener.close().then(() => process.exit(0)));
