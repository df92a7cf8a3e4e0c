import type { JsonRpcRequest, Transport } from '@mcpkit/jsonrpc-core';
import type { Implementation, Tool } from '@mcpkit/protocol';
import type { NamePattern } from '../middleware/filters';
import type { OutboundHook, ServerMiddleware } from '../middleware/types';
import type { JsonSchemaCompiler, SchemaInput } from '../schema/schema';
import type { ServerExtension } from '../server/extensions';
import { Server, type ServerOptions } from '../server/server';
import type { ConnectOptions, ServerSession } from '../session/session';
import { type RegisteredTool, type ToolConfig, type ToolHandler, Tools } from '../tools/tools';
import { ListChangedDebouncer } from './list-changed';

/** Options for `McpToolServer` (and `McpServer`). */
export interface McpToolServerOptions extends ServerOptions {
  /** Items per page of `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`. Default 100. */
  pageSize?: number;
  /** How long list changes are coalesced before `list_changed` goes out. Default 5 ms. */
  listChangedDebounceMs?: number;
  /** Declare the `logging` capability, so handlers' `ctx.log` reaches clients. Default `true`. */
  logging?: boolean;
  /**
   * How plain JSON Schemas (`inputSchema: { type: 'object', … }`) are compiled and validated. `McpServer` uses
   * `jsonSchemaCompiler` (@cfworker/json-schema) unless told otherwise; `McpToolServer` has none, so its bundle
   * carries no JSON Schema validator: pass `jsonSchemaCompiler` to register plain JSON Schemas there. Standard
   * Schemas (zod, valibot, arktype) never need it.
   */
  jsonSchema?: JsonSchemaCompiler;
}

/**
 * The lean MCP server: tools only, and Standard Schemas (zod, valibot, arktype) unless a `jsonSchema` compiler is
 * given. It is `McpServer` without resources, prompts, completion, the JSON Schema validator, asking the client (input
 * rounds) and the `x-mcp-header` registration check, so a tools-only server's bundle carries none of their code
 * (`McpServer` extends it and adds them). Everything else is the same: both protocol eras, every transport, `use` /
 * `useOutbound` / `extend`, list-changed notifications.
 *
 * A tool that asks the client (`ctx.elicit`, `createMessage`, `listRoots`, `ask`) needs
 * `inputRounds: new InputRounds()`, in every revision; without it the request fails with -32603
 * `ERR_INPUT_ROUNDS_OFF` naming the option.
 * Invalid `x-mcp-header` declarations (Streamable HTTP only) are reported by the HTTP handler, not refused here.
 *
 * @example
 * const server = new McpToolServer({ name: 'weather', version: '1.0.0' });
 * server.registerTool(
 *   'forecast',
 *   { description: 'Forecast for a city', inputSchema: { city: z.string() } },
 *   async ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}` }] }),
 * );
 * await server.connect(new StdioServerTransport());
 *
 * // A server whose tools ask the client (elicitation, sampling, roots):
 * const asking = new McpToolServer({ name: 'deploy', version: '1.0.0' }, { inputRounds: new InputRounds() });
 */
export class McpToolServer {
  /** The low-level server underneath (for custom methods and capabilities). */
  readonly server: Server;
  /** Coalesces list changes into `list_changed` notifications (shared by every feature of the server). */
  protected readonly listChanged: ListChangedDebouncer;
  /** Items per page of every list this server answers. */
  protected readonly pageSize: number;
  /** The tools feature (`McpServer` adds its registration checks to it). */
  protected readonly tools: Tools;

  constructor(serverInfo: Implementation, options: McpToolServerOptions = {}) {
    this.server = new Server(serverInfo, options);
    if (options.logging !== false) this.server.registerCapabilities({ logging: {} });
    const pageSize = options.pageSize ?? 100;
    if (!(pageSize >= 1)) throw new RangeError(`McpServer: pageSize must be at least 1; got ${options.pageSize}`);
    this.pageSize = pageSize;
    const listChanged = new ListChangedDebouncer(this.server, options.listChangedDebounceMs ?? 5);
    this.listChanged = listChanged;
    this.tools = new Tools(this.server, pageSize, () => listChanged.changed('tools'), options.jsonSchema);
  }

  /** The sessions currently connected. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.server.sessions;
  }

  /** Connects a transport as a new session. */
  connect(transport: Transport, options?: ConnectOptions): Promise<ServerSession> {
    return this.server.connect(transport, options);
  }

  /** Runs one request without a long-lived connection (see `Server.handle`). */
  handle(request: JsonRpcRequest, options?: Parameters<Server['handle']>[1]) {
    return this.server.handle(request, options);
  }

  /** Closes every session. */
  async close(): Promise<void> {
    this.listChanged.cancel();
    await this.server.close();
  }

  /**
   * Adds a middleware around every inbound request and notification, on every path and in both eras (see
   * `Server.use`). Returns a function that removes it.
   *
   * @example
   * server.use('tools/*', async (ctx, next) => {
   *   const started = Date.now();
   *   try { return await next(); } finally { console.error(ctx.method, Date.now() - started, 'ms'); }
   * });
   */
  use(middleware: ServerMiddleware): () => void;
  use(pattern: NamePattern, middleware: ServerMiddleware): () => void;
  use(first: ServerMiddleware | NamePattern, second?: ServerMiddleware): () => void {
    return second === undefined
      ? this.server.use(first as ServerMiddleware)
      : this.server.use(first as NamePattern, second);
  }

  /** Adds a hook around every outbound notification and server→client request (see `Server.useOutbound`). */
  useOutbound(hook: OutboundHook): () => void {
    return this.server.useOutbound(hook);
  }

  /**
   * Registers an extension: advertised, routed on every path, its middleware installed (see `Server.extend`); its
   * `install` sees this object as `host` (to read the tool registry), and what it returns is returned.
   *
   * @example
   * const taskServer = mcp.extend(tasks({ store }));
   */
  extend<A = void>(extension: ServerExtension<A, this>): A {
    const { install, ...rest } = extension;
    // The same extension, installed with this object as its host instead of the `Server` under it.
    return this.server.extend<A>({
      ...rest,
      install: install === undefined ? undefined : ({ server }) => install.call(extension, { server, host: this }),
    });
  }

  /**
   * Registers a tool. Its name must follow SEP-986 (1–128 of `A-Z a-z 0-9 _ - .`): invalid names throw, risky ones
   * warn once. Arguments are validated against `inputSchema` before the handler runs (invalid → an `isError` result
   * naming the issues); `structuredContent` is validated against `outputSchema` (invalid or missing → -32603).
   *
   * @example
   * const add = server.registerTool('add', {
   *   inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } as const,
   * }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
   * add.disable();
   */
  registerTool<
    const I extends SchemaInput | undefined = undefined,
    const O extends SchemaInput | undefined = undefined,
  >(name: string, config: ToolConfig<I, O>, handler: ToolHandler<I>): RegisteredTool {
    return this.tools.register(
      name,
      config as ToolConfig<SchemaInput | undefined, SchemaInput | undefined>,
      handler as unknown as ToolHandler<never>,
    );
  }

  /**
   * The wire definition of the enabled tool `name` (as `tools/list` shows it in 2025-11-25, `execution` included), or
   * `undefined`. Extensions read it: `@mcpkit/tasks` decides from `execution.taskSupport` how a call may run.
   *
   * @example
   * server.getTool('deploy')?.execution?.taskSupport; // 'optional'
   */
  getTool(name: string): Tool | undefined {
    return this.tools.definition(name);
  }
}
