// Entry point: `npx pnpm --filter @mcpkit/app-http-express start`. PORT and HOST pick where it listens (default
// 127.0.0.1:3000); CORS_ORIGINS (comma-separated) lists the browser origins allowed to call it.
import { DEFAULT_CORS_ORIGINS } from './app';
import { start } from './start';

const corsOrigins = process.env.CORS_ORIGINS?.split(',')
  .map((origin) => origin.trim())
  .filter((origin) => origin !== '');

const running = await start({
  port: Number(process.env.PORT ?? 3000),
  host: process.env.HOST ?? '127.0.0.1',
  corsOrigins: corsOrigins ?? DEFAULT_CORS_ORIGINS,
});
console.log(`MCP endpoint listening on ${running.url.href} (health: ${new URL('/healthz', running.url).href})`);

let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return; // a second Ctrl-C while closing changes nothing; the grace period bounds the wait
  stopping = true;
  console.log(`${signal}: closing`);
  running.close().then(
    () => {
      console.log('closed');
      process.exit(0);
    },
    (error: unknown) => {
      console.error('shutdown failed:', error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
