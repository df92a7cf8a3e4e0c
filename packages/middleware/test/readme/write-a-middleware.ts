import { Client } from '@mcpkit/client';
import { createLinkedTransports, JsonRpcError } from '@mcpkit/jsonrpc-core';
import { McpServer, type ServerMiddleware } from '@mcpkit/server';

// Typed variables: declared once, `ctx.get('tenant')` is typed in every middleware and handler.
declare module '@mcpkit/server' {
  interface ContextVariableMap {
    tenant: string;
  }
}

// Before `next()`: look at the request, refuse it, or set variables. After: time it, change the result.
const tenants: ServerMiddleware = async (ctx, next) => {
  const tenant = ctx.auth?.extra?.tenant;
  if (ctx.kind === 'request' && ctx.method === 'tools/call' && typeof tenant !== 'string') {
    throw new JsonRpcError(403, 'Sign in with a tenant first', { method: ctx.method });
  }
  if (typeof tenant === 'string') ctx.set('tenant', tenant);
  const started = performance.now();
  const result = await next();
  console.log(
    `${ctx.method} for ${ctx.get('tenant') ?? 'nobody'} in ${performance.now() - started < 1_000 ? '<1 s' : '≥1 s'}`,
  );
  return result;
};

const server = new McpServer({ name: 'tenants', version: '1.0.0' });
server.use(tenants);
// A pattern limits a middleware to some methods: this one answers without the handler.
server.use('prompts/*', () => {
  throw new JsonRpcError(503, 'Prompts are closed for maintenance');
});
server.registerTool('whoami', {}, (_args, ctx) => ({
  content: [{ type: 'text', text: `tenant ${ctx.get('tenant')}` }],
}));
server.registerPrompt('hello', {}, () => ({ messages: [] }));

const [clientSide, serverSide] = createLinkedTransports({
  second: { messageInfo: { auth: { token: 't', extra: { tenant: 'acme' } } } },
});
await server.connect(serverSide);
const client = new Client({ name: 'demo', version: '1.0.0' });
await client.connect(clientSide);
const answer = await client.callTool({ name: 'whoami', arguments: {} });
console.log(answer.content[0]?.type === 'text' ? answer.content[0].text : '');
await client.getPrompt({ name: 'hello' }).catch((error) => console.log(`${error.code}: ${error.message}`));
await client.close();
