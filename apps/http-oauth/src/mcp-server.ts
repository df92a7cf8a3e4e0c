// The MCP server itself: one tool any signed-in user may call, and one that needs an extra scope (step-up).
import { McpServer } from '@mcpkit/server';

/** The scope every request needs: asked for at the first sign-in. */
export const BASE_SCOPE = 'mcp:tools';
/** The extra scope of `admin_report`: a client gets it by stepping up when the server answers 403. */
export const ADMIN_SCOPE = 'mcp:admin';

/**
 * Builds the one `McpServer` every session shares. Tools see who is calling as `ctx.auth` (verified by the bearer
 * middleware): keep per-user data keyed by `ctx.auth.subject`.
 *
 * @example
 * const server = createMcpServer();
 */
export function createMcpServer(): McpServer {
  const server = new McpServer(
    { name: 'http-oauth-sample', version: '1.0.0' },
    { instructions: 'A sample protected server: whoami for any user, admin_report with the mcp:admin scope.' },
  );

  server.registerTool(
    'whoami',
    { description: 'Who the access token says you are', annotations: { readOnlyHint: true } },
    (_args, ctx) => {
      const auth = ctx.auth;
      const identity = {
        subject: auth?.subject ?? null,
        clientId: auth?.clientId ?? null,
        scopes: auth?.scopes ?? [],
      };
      return { content: [{ type: 'text', text: JSON.stringify(identity) }], structuredContent: identity };
    },
  );

  // The scope check happens before the handler runs (the bearer middleware's `toolScopes`, see app.ts): a token
  // without mcp:admin gets 403 insufficient_scope and a compliant client asks the user for more.
  server.registerTool(
    'admin_report',
    {
      description: `A report for administrators (needs the ${ADMIN_SCOPE} scope)`,
      annotations: { readOnlyHint: true },
    },
    (_args, ctx) => ({
      content: [{ type: 'text', text: `Admin report for ${ctx.auth?.subject ?? 'nobody'}: all systems nominal.` }],
    }),
  );

  return server;
}
