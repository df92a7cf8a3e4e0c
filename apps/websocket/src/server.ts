// Entry point: `npx pnpm --filter @mcpkit/app-websocket start`, then open the printed page in a browser. PORT and
// HOST pick where it listens (default 127.0.0.1:3000).
import { start } from './start';

const running = await start({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
console.log(`page listening on ${running.pageUrl.href}`);
console.log(
  `MCP over WebSocket listening on ${running.mcpUrl.href} (allowed origins: ${running.allowedOrigins.join(', ')})`,
);

let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing`);
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('shutdown failed:', error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
