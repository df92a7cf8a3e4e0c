// `mcpkit ping` in both eras: 2025-11-25 sends `ping`; 2026-07-28 removed it, so `server/discover` is sent instead
// (the protocol package's method table decides, not an era test in the CLI).
import { McpServer } from '@mcpkit/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Remote, serveRemote } from './bridge-harness';
import { runCli } from './run-cli';

const methods: string[] = [];
let remote: Remote;

beforeAll(async () => {
  const server = new McpServer({ name: 'pinged', version: '1.0.0' });
  server.use(async (ctx, next) => {
    methods.push(ctx.method);
    return await next();
  });
  remote = await serveRemote(server);
});

afterAll(async () => {
  await remote?.close();
});

it('pings a 2025-11-25 server with ping and a 2026-07-28 one with server/discover', async () => {
  const legacy = await runCli(['ping', '--json', '--protocol-version', '2025-11-25', '--url', remote.url]);
  expect(legacy.json()).toMatchObject({ ok: true });
  expect(methods.at(-1)).toBe('ping');
  const modern = await runCli(['ping', '--json', '--url', remote.url]);
  expect(modern.json()).toMatchObject({ ok: true });
  expect(methods.at(-1)).toBe('server/discover');
});
