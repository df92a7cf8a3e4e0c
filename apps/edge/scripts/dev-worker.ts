// Runs the Worker locally in workerd without wrangler (which needs Node >= 22): bundles src/worker.ts from the
// workspace sources and serves it with miniflare on http://127.0.0.1:8787/mcp, Durable Objects kept in .workerd/.
// `pnpm --filter @mcpkit/app-edge dev:worker`; Ctrl-C stops it.

import { bundleWorker, startWorkers } from '../test/workerd';

const port = Number(process.env.PORT ?? 8787);
const workers = await startWorkers(await bundleWorker('src/worker.ts'), {
  persist: '.workerd',
  port,
  bindings: { REQUEST_STATE_SECRET: process.env.REQUEST_STATE_SECRET ?? crypto.randomUUID() },
});
console.log(`edge-demo (workerd): ${workers.url.href}`);
process.once('SIGINT', () => void workers.dispose().then(() => process.exit(0)));
