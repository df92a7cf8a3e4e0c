// Entry point: `npx pnpm --filter @mcpkit/app-http-oauth start`. PORT (default 3000) and AS_PORT (default 3001) pick
// the ports on 127.0.0.1; MODE=proxy puts the OAuth proxy in front of the demo authorization server.
import { start } from './start';

const mode = process.env.MODE === 'proxy' ? 'proxy' : 'direct';
const running = await start({
  port: Number(process.env.PORT ?? 3000),
  authorizationServerPort: Number(process.env.AS_PORT ?? 3001),
  mode,
});

console.log(`MCP endpoint listening on ${running.url.href} (${mode} mode)
Authorization server: ${running.issuer}${mode === 'proxy' ? ` (OAuth proxy; upstream: ${running.authorizationServer.issuer})` : ''}

Try it:
  1. Point an MCP client with OAuth support at ${running.url.href}
     (e.g. npx @modelcontextprotocol/inspector, transport "Streamable HTTP").
  2. The first request gets 401; the client discovers ${new URL('/.well-known/oauth-protected-resource/mcp', running.url).href},
     registers, and opens the authorization page.
  3. NOTE: the demo authorization server approves every request at once: no login, no consent. Demo and tests only.
  4. Call "whoami"; then "admin_report", which needs the mcp:admin scope: the server answers 403 insufficient_scope
     and the client asks for it (step-up).
Ctrl-C stops both servers.`);

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
