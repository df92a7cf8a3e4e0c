// Entry point: `pnpm --filter @mcpkit/app-mcp-app start`, then open the printed page. PORT and SANDBOX_PORT pick the
// ports (default 3000 and 3001, on 127.0.0.1).
import { start } from './start';

const running = await start({
  port: Number(process.env.PORT ?? 3000),
  sandboxPort: Number(process.env.SANDBOX_PORT ?? 3001),
});
console.log(`host page: ${running.pageUrl.href}`);
console.log(`MCP (Streamable HTTP): ${running.mcpUrl.href}`);
console.log(`sandbox proxy: ${running.sandboxUrl.href}`);

const stop = () => {
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('shutdown failed:', error);
      process.exit(1);
    },
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
