// A node:http server on 127.0.0.1, a free port, for the official SDK bench servers (mcpkit uses its own `listen`).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens with `listener` at `/mcp` and resolves with the endpoint URL. */
export async function listenNode(listener: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<string> {
  const server = createServer((req, res) => {
    if (!(req.url ?? '/').startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    void listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}
