import { JsonRpcError, JsonRpcErrorCode, type JsonRpcRequest, type Transport } from '@mcpkit/jsonrpc-core';
import {
  type Annotations,
  type CallToolResult,
  type CompleteResult,
  type GetPromptResult,
  type Icon,
  type Implementation,
  invalidParamsError,
  type Prompt,
  type PromptArgument,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate as ResourceTemplateDefinition,
  resourceNotFoundError,
  type Tool,
  type ToolAnnotations,
  validateMcpHeaderDeclarations,
  validateToolName,
} from '@mcpkit/protocol';
import type { ServerRequestContext } from './context';
import { paginate } from './pagination';
import { RegistrationError, Registry, type RegistryEntry } from './registry';
import { type Completer, ResourceTemplate } from './resource-template';
import {
  type CompiledSchema,
  compileSchema,
  formatIssues,
  type InferSchema,
  SchemaError,
  type SchemaInput,
} from './schema';
import { type CacheHint, Server, type ServerOptions } from './server';
import type { ConnectOptions, ServerSession } from './session';
import type { UriTemplateVariables } from './uri-template';

/** Options for `McpServer`. */
export interface McpServerOptions extends ServerOptions {
  /** Items per page of `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`. Default 100. */
  pageSize?: number;
  /** How long list changes are coalesced before `list_changed` goes out. Default 5 ms. */
  listChangedDebounceMs?: number;
  /** Declare the `logging` capability, so handlers' `ctx.log` reaches clients. Default `true`. */
  logging?: boolean;
}

/** The arguments a tool or prompt handler receives for its schema (an empty object without one). */
export type ArgsOf<S> = S extends SchemaInput ? InferSchema<S> : Record<string, never>;

/** How a tool is described. */
export interface ToolConfig<
  I extends SchemaInput | undefined = undefined,
  O extends SchemaInput | undefined = undefined,
> {
  title?: string;
  description?: string;
  /** Standard Schema or JSON Schema (root `type: "object"`) of the arguments; validated before the handler runs. */
  inputSchema?: I;
  /** Standard Schema or JSON Schema of `structuredContent`; enforced on every successful result. */
  outputSchema?: O;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** Answers `tools/call` for one tool. */
export type ToolHandler<I> = (args: ArgsOf<I>, ctx: ServerRequestContext) => CallToolResult | Promise<CallToolResult>;

/** How a prompt is described. */
export interface PromptConfig<A extends SchemaInput | undefined = undefined> {
  title?: string;
  description?: string;
  /** Standard Schema or JSON Schema of the (string) arguments; its properties become the prompt's `arguments`. */
  argsSchema?: A;
  /** Completers for arguments, by argument name. */
  complete?: Record<string, Completer>;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** Answers `prompts/get` for one prompt. */
export type PromptHandler<A> = (
  args: ArgsOf<A>,
  ctx: ServerRequestContext,
) => GetPromptResult | Promise<GetPromptResult>;

/** How a resource (or resource template) is described. */
export interface ResourceMetadata {
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  size?: number;
  _meta?: Record<string, unknown>;
  /** Caching hint for its `resources/read` results (2026-07-28); default: the server's. */
  cache?: CacheHint;
}

/** Answers `resources/read` for a fixed URI. */
export type ResourceHandler = (
  uri: string,
  ctx: ServerRequestContext,
) => ReadResourceResult | Promise<ReadResourceResult>;

/**
 * Answers `resources/read` for URIs matching a template. Return `undefined` when the URI matches but names nothing
 * that exists: the client gets "resource not found" with the code of its era (-32602 in 2026-07-28, -32002 before).
 */
export type ResourceTemplateHandler = (
  uri: string,
  variables: UriTemplateVariables,
  ctx: ServerRequestContext,
) => ReadResourceResult | undefined | Promise<ReadResourceResult | undefined>;

/** What every registration returns. */
export interface RegisteredHandle<Patch> {
  readonly name: string;
  readonly enabled: boolean;
  /** Lists it again (and notifies clients). */
  enable(): void;
  /** Hides it from lists and calls (and notifies clients). */
  disable(): void;
  /** Changes its description, schemas, handler or name (and notifies clients). */
  update(patch: Patch): void;
  /** Unregisters it (and notifies clients). Later calls on the handle throw. */
  remove(): void;
}

export type RegisteredTool = RegisteredHandle<
  Partial<ToolConfig<SchemaInput | undefined, SchemaInput | undefined>> & {
    name?: string;
    handler?: ToolHandler<never>;
  }
>;
export type RegisteredPrompt = RegisteredHandle<
  Partial<PromptConfig<SchemaInput | undefined>> & { name?: string; handler?: PromptHandler<never> }
>;
type ResourcePatch = Partial<ResourceMetadata> & { name?: string; uri?: string; handler?: ResourceHandler };
type TemplatePatch = Partial<ResourceMetadata> & {
  name?: string;
  template?: ResourceTemplate;
  handler?: ResourceTemplateHandler;
};
export type RegisteredResource = RegisteredHandle<ResourcePatch>;
export type RegisteredResourceTemplate = RegisteredHandle<TemplatePatch>;

interface ToolEntry extends RegistryEntry<Tool> {
  name: string;
  config: ToolConfig<SchemaInput | undefined, SchemaInput | undefined>;
  input: CompiledSchema | undefined;
  output: CompiledSchema | undefined;
  handler: ToolHandler<never>;
}

interface PromptEntry extends RegistryEntry<Prompt> {
  config: PromptConfig<SchemaInput | undefined>;
  args: CompiledSchema | undefined;
  handler: PromptHandler<never>;
}

interface ResourceEntry extends RegistryEntry<Resource> {
  name: string;
  metadata: ResourceMetadata;
  handler: ResourceHandler;
}

interface TemplateEntry extends RegistryEntry<ResourceTemplateDefinition> {
  metadata: ResourceMetadata;
  template: ResourceTemplate;
  handler: ResourceTemplateHandler;
}

const EMPTY_INPUT_SCHEMA = Object.freeze({ type: 'object', properties: Object.freeze({}) }) as Tool['inputSchema'];
const NO_ARGS = Object.freeze({});
const MAX_COMPLETION_VALUES = 100;
const warnedToolNames = new Set<string>();

function strip<T extends Record<string, unknown>>(object: T): T {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}

function textResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * The high-level MCP server: register tools, resources (fixed or templated) and prompts; it answers lists (paginated,
 * in registration order), calls, reads, gets and completions in both protocol eras, derives capabilities from what is
 * registered, and tells clients when lists change. One instance serves any number of sessions.
 *
 * @example
 * const server = new McpServer({ name: 'weather', version: '1.0.0' });
 * server.registerTool(
 *   'forecast',
 *   { description: 'Forecast for a city', inputSchema: z.object({ city: z.string() }) },
 *   async ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}` }] }),
 * );
 * await server.connect(new StdioServerTransport());
 */
export class McpServer {
  /** The low-level server underneath (for custom methods and capabilities). */
  readonly server: Server;
  readonly #pageSize: number;
  readonly #debounceMs: number;
  readonly #tools: Registry<ToolEntry, Tool>;
  readonly #prompts: Registry<PromptEntry, Prompt>;
  readonly #resources: Registry<ResourceEntry, Resource>;
  readonly #templates: Registry<TemplateEntry, ResourceTemplateDefinition>;
  readonly #pendingListChanged = new Set<'tools' | 'prompts' | 'resources'>();
  #listChangedTimer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(serverInfo: Implementation, options: McpServerOptions = {}) {
    this.server = new Server(serverInfo, options);
    if (options.logging !== false) this.server.registerCapabilities({ logging: {} });
    this.#pageSize = options.pageSize ?? 100;
    if (!(this.#pageSize >= 1)) throw new RangeError(`McpServer: pageSize must be at least 1; got ${options.pageSize}`);
    this.#debounceMs = options.listChangedDebounceMs ?? 5;
    this.#tools = new Registry(() => this.#listChanged('tools'));
    this.#prompts = new Registry(() => this.#listChanged('prompts'));
    this.#resources = new Registry(() => this.#listChanged('resources'));
    this.#templates = new Registry(() => this.#listChanged('resources'));
    this.#installHandlers();
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
    if (this.#listChangedTimer !== undefined) clearTimeout(this.#listChangedTimer);
    this.#listChangedTimer = undefined;
    this.#pendingListChanged.clear();
    await this.server.close();
  }

  /** Tells subscribed clients (both eras) that a resource changed. */
  notifyResourceUpdated(uri: string): void {
    this.server.notifyResourceUpdated(uri);
  }

  // ---------------------------------------------------------------- tools

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
  registerTool<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolHandler<I>,
  ): RegisteredTool {
    this.#checkToolName(name);
    if (this.#tools.has(name))
      throw new RegistrationError('ERR_DUPLICATE', `Tool "${name}" is already registered`, { name });
    const entry = this.#toolEntry(
      name,
      config as ToolConfig<SchemaInput | undefined, SchemaInput | undefined>,
      handler as ToolHandler<never>,
    );
    if (!this.server.declares(['tools'])) this.server.registerCapabilities({ tools: { listChanged: true } });
    this.#tools.add(entry);
    return this.#handle(this.#tools, entry, 'Tool', (patch) => {
      const nextName = patch.name ?? entry.name;
      if (nextName !== entry.name) {
        this.#checkToolName(nextName);
        if (this.#tools.has(nextName)) {
          throw new RegistrationError('ERR_DUPLICATE', `Tool "${nextName}" is already registered`, { name: nextName });
        }
      }
      const { name: _name, handler: nextHandler, ...configPatch } = patch;
      const next = this.#toolEntry(nextName, { ...entry.config, ...configPatch }, nextHandler ?? entry.handler);
      entry.config = next.config;
      entry.input = next.input;
      entry.output = next.output;
      entry.handler = next.handler;
      entry.definition = next.definition;
      if (nextName !== entry.name) {
        entry.name = nextName;
        this.#tools.rename(entry, nextName);
      } else {
        this.#tools.changed();
      }
    });
  }

  #checkToolName(name: string): void {
    const verdict = validateToolName(name);
    if (!verdict.ok) throw new RegistrationError('ERR_INVALID_NAME', verdict.reason, { name });
    if (verdict.warnings.length > 0 && !warnedToolNames.has(name)) {
      warnedToolNames.add(name);
      console.warn(`[mcpkit] ${verdict.warnings.join('; ')}`);
    }
  }

  #toolEntry(
    name: string,
    config: ToolConfig<SchemaInput | undefined, SchemaInput | undefined>,
    handler: ToolHandler<never>,
  ): ToolEntry {
    const input = config.inputSchema === undefined ? undefined : compileSchema(config.inputSchema, 'input');
    if (input !== undefined && input.jsonSchema.type !== 'object') {
      throw new SchemaError(`Tool "${name}": inputSchema must describe an object (root "type": "object")`, {
        name,
        type: input.jsonSchema.type,
      });
    }
    if (input !== undefined) {
      // Clients drop tools whose x-mcp-header declarations are invalid (2026-07-28): refuse them here instead.
      const headers = validateMcpHeaderDeclarations(input.jsonSchema);
      if (!headers.ok) {
        throw new SchemaError(`Tool "${name}": invalid x-mcp-header declaration: ${headers.reason}`, { name });
      }
    }
    const output = config.outputSchema === undefined ? undefined : compileSchema(config.outputSchema, 'output');
    const definition = strip({
      name,
      title: config.title,
      description: config.description,
      inputSchema: (input?.jsonSchema ?? EMPTY_INPUT_SCHEMA) as Tool['inputSchema'],
      outputSchema: output?.jsonSchema,
      annotations: config.annotations,
      icons: config.icons,
      _meta: config._meta,
    }) as Tool;
    return { key: name, name, enabled: true, definition, config, input, output, handler };
  }

  async #callTool(params: { name?: unknown; arguments?: unknown } | undefined, ctx: ServerRequestContext) {
    const name = params?.name;
    const tool = typeof name === 'string' ? this.#tools.get(name) : undefined;
    if (tool === undefined || !tool.enabled) throw invalidParamsError(`Unknown tool: ${String(name)}`, { name });
    let args: unknown = params!.arguments ?? NO_ARGS;
    if (tool.input !== undefined) {
      let verdict = tool.input.validate(args);
      if (verdict instanceof Promise) verdict = await verdict;
      if (!verdict.ok) {
        // SEP-1303: the model can read and fix an input error, so it is a tool result, not a protocol error.
        return textResult(`Invalid arguments for tool ${tool.name}:\n${formatIssues(verdict.issues)}`);
      }
      args = verdict.value;
    }
    let result: CallToolResult;
    try {
      result = await tool.handler(args as never, ctx);
    } catch (error) {
      if (JsonRpcError.is(error)) throw error;
      return textResult(error instanceof Error ? error.message : String(error));
    }
    if (tool.output !== undefined && result.isError !== true) {
      if (result.structuredContent === undefined) {
        throw new JsonRpcError(
          JsonRpcErrorCode.InternalError,
          `Tool ${tool.name} declares an outputSchema but returned no structuredContent`,
          { tool: tool.name },
        );
      }
      let verdict = tool.output.validate(result.structuredContent);
      if (verdict instanceof Promise) verdict = await verdict;
      if (!verdict.ok) {
        throw new JsonRpcError(
          JsonRpcErrorCode.InternalError,
          `Tool ${tool.name} returned structuredContent that does not match its outputSchema:\n${formatIssues(verdict.issues)}`,
          { tool: tool.name, issues: verdict.issues },
        );
      }
    }
    return result;
  }

  // ---------------------------------------------------------------- prompts

  /**
   * Registers a prompt. Arguments are validated against `argsSchema` (invalid → -32602); `complete` answers
   * `completion/complete` for its arguments.
   *
   * @example
   * server.registerPrompt('review', { argsSchema: z.object({ code: z.string() }) }, ({ code }) => ({
   *   messages: [{ role: 'user', content: { type: 'text', text: `Review:\n${code}` } }],
   * }));
   */
  registerPrompt<A extends SchemaInput | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): RegisteredPrompt {
    if (this.#prompts.has(name))
      throw new RegistrationError('ERR_DUPLICATE', `Prompt "${name}" is already registered`, { name });
    const entry = this.#promptEntry(
      name,
      config as PromptConfig<SchemaInput | undefined>,
      handler as PromptHandler<never>,
    );
    if (!this.server.declares(['prompts'])) this.server.registerCapabilities({ prompts: { listChanged: true } });
    if (!this.server.declares(['completions'])) this.server.registerCapabilities({ completions: {} });
    this.#prompts.add(entry);
    return this.#handle(this.#prompts, entry, 'Prompt', (patch) => {
      const nextName = patch.name ?? entry.key;
      if (nextName !== entry.key && this.#prompts.has(nextName)) {
        throw new RegistrationError('ERR_DUPLICATE', `Prompt "${nextName}" is already registered`, { name: nextName });
      }
      const { name: _name, handler: nextHandler, ...configPatch } = patch;
      const next = this.#promptEntry(nextName, { ...entry.config, ...configPatch }, nextHandler ?? entry.handler);
      entry.config = next.config;
      entry.args = next.args;
      entry.handler = next.handler;
      entry.definition = next.definition;
      if (nextName !== entry.key) this.#prompts.rename(entry, nextName);
      else this.#prompts.changed();
    });
  }

  #promptEntry(
    name: string,
    config: PromptConfig<SchemaInput | undefined>,
    handler: PromptHandler<never>,
  ): PromptEntry {
    const args = config.argsSchema === undefined ? undefined : compileSchema(config.argsSchema, 'input');
    let argumentList: PromptArgument[] | undefined;
    if (args !== undefined) {
      const properties = (args.jsonSchema.properties ?? {}) as Record<string, { description?: string; title?: string }>;
      const required = new Set((args.jsonSchema.required as string[] | undefined) ?? []);
      argumentList = Object.entries(properties).map(([argName, property]) =>
        strip({
          name: argName,
          title: property?.title,
          description: property?.description,
          required: required.has(argName),
        }),
      );
    }
    const definition = strip({
      name,
      title: config.title,
      description: config.description,
      arguments: argumentList,
      icons: config.icons,
      _meta: config._meta,
    }) as Prompt;
    return { key: name, enabled: true, definition, config, args, handler };
  }

  async #getPrompt(params: { name?: unknown; arguments?: unknown } | undefined, ctx: ServerRequestContext) {
    const name = params?.name;
    const prompt = typeof name === 'string' ? this.#prompts.get(name) : undefined;
    if (prompt === undefined || !prompt.enabled) throw invalidParamsError(`Unknown prompt: ${String(name)}`, { name });
    let args: unknown = params!.arguments ?? NO_ARGS;
    if (prompt.args !== undefined) {
      let verdict = prompt.args.validate(args);
      if (verdict instanceof Promise) verdict = await verdict;
      if (!verdict.ok) {
        throw invalidParamsError(`Invalid arguments for prompt ${prompt.key}:\n${formatIssues(verdict.issues)}`, {
          issues: verdict.issues,
        });
      }
      args = verdict.value;
    }
    return prompt.handler(args as never, ctx);
  }

  // ---------------------------------------------------------------- resources

  /**
   * Registers a resource at a fixed URI, or a family of resources under a `ResourceTemplate`.
   *
   * @example
   * server.registerResource('readme', 'file:///README.md', { mimeType: 'text/markdown' }, (uri) => ({
   *   contents: [{ uri, text: '# Hello' }],
   * }));
   */
  registerResource(name: string, uri: string, metadata: ResourceMetadata, handler: ResourceHandler): RegisteredResource;
  registerResource(
    name: string,
    template: ResourceTemplate,
    metadata: ResourceMetadata,
    handler: ResourceTemplateHandler,
  ): RegisteredResourceTemplate;
  registerResource(
    name: string,
    target: string | ResourceTemplate,
    metadata: ResourceMetadata,
    handler: ResourceHandler | ResourceTemplateHandler,
  ): RegisteredResource | RegisteredResourceTemplate {
    if (!this.server.declares(['resources'])) {
      this.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
    }
    if (typeof target === 'string') {
      if (this.#resources.has(target)) {
        throw new RegistrationError('ERR_DUPLICATE', `A resource at "${target}" is already registered`, {
          uri: target,
        });
      }
      const entry: ResourceEntry = {
        key: target,
        name,
        enabled: true,
        metadata,
        handler: handler as ResourceHandler,
        definition: this.#resourceDefinition(name, target, metadata),
      };
      this.#resources.add(entry);
      return this.#handle(this.#resources, entry, 'Resource', (patch: ResourcePatch) => {
        const { name: nextName, uri: nextUri, handler: nextHandler, ...metadataPatch } = patch;
        const uri = nextUri ?? entry.key;
        if (uri !== entry.key && this.#resources.has(uri)) {
          throw new RegistrationError('ERR_DUPLICATE', `A resource at "${uri}" is already registered`, { uri });
        }
        entry.name = nextName ?? entry.name;
        entry.metadata = { ...entry.metadata, ...metadataPatch };
        entry.handler = nextHandler ?? entry.handler;
        entry.definition = this.#resourceDefinition(entry.name, uri, entry.metadata);
        if (uri !== entry.key) this.#resources.rename(entry, uri);
        else this.#resources.changed();
      });
    }
    if (this.#templates.has(name)) {
      throw new RegistrationError('ERR_DUPLICATE', `A resource template named "${name}" is already registered`, {
        name,
      });
    }
    if (!this.server.declares(['completions'])) this.server.registerCapabilities({ completions: {} });
    const entry: TemplateEntry = {
      key: name,
      enabled: true,
      metadata,
      template: target,
      handler: handler as ResourceTemplateHandler,
      definition: this.#templateDefinition(name, target, metadata),
    };
    this.#templates.add(entry);
    return this.#handle(this.#templates, entry, 'Resource template', (patch: TemplatePatch) => {
      const { name: nextName, template, handler: nextHandler, ...metadataPatch } = patch;
      const key = nextName ?? entry.key;
      if (key !== entry.key && this.#templates.has(key)) {
        throw new RegistrationError('ERR_DUPLICATE', `A resource template named "${key}" is already registered`, {
          name: key,
        });
      }
      entry.template = template ?? entry.template;
      entry.metadata = { ...entry.metadata, ...metadataPatch };
      entry.handler = nextHandler ?? entry.handler;
      entry.definition = this.#templateDefinition(key, entry.template, entry.metadata);
      if (key !== entry.key) this.#templates.rename(entry, key);
      else this.#templates.changed();
    });
  }

  #resourceDefinition(name: string, uri: string, metadata: ResourceMetadata): Resource {
    const { cache: _cache, ...rest } = metadata;
    return strip({ uri, name, ...rest }) as Resource;
  }

  #templateDefinition(
    name: string,
    template: ResourceTemplate,
    metadata: ResourceMetadata,
  ): ResourceTemplateDefinition {
    const { cache: _cache, size: _size, ...rest } = metadata;
    return strip({ uriTemplate: template.uriTemplate.template, name, ...rest }) as ResourceTemplateDefinition;
  }

  async #listResources(cursor: unknown, ctx: ServerRequestContext) {
    const templates = this.#templates.enabledEntries().filter((entry) => entry.template.callbacks.list !== undefined);
    if (templates.length === 0) {
      const page = this.#resources.page(cursor, this.#pageSize);
      return page.nextCursor === undefined
        ? { resources: page.items }
        : { resources: page.items, nextCursor: page.nextCursor };
    }
    const all: Resource[] = this.#resources.enabledEntries().map((entry) => entry.definition);
    for (const entry of templates) all.push(...(await entry.template.callbacks.list!(ctx)));
    const page = paginate(all, cursor, this.#pageSize, this.#resources.version * 65_536 + this.#templates.version);
    return page.nextCursor === undefined
      ? { resources: page.items }
      : { resources: page.items, nextCursor: page.nextCursor };
  }

  async #readResource(params: { uri?: unknown } | undefined, ctx: ServerRequestContext) {
    const uri = params?.uri;
    if (typeof uri !== 'string') throw invalidParamsError('resources/read needs params.uri (a string)');
    let result: ReadResourceResult | undefined;
    let metadata: ResourceMetadata | undefined;
    const fixed = this.#resources.get(uri);
    if (fixed?.enabled) {
      metadata = fixed.metadata;
      result = await fixed.handler(uri, ctx);
    } else {
      for (const entry of this.#templates.enabledEntries()) {
        const variables = entry.template.uriTemplate.match(uri);
        if (variables === undefined) continue;
        metadata = entry.metadata;
        result = await entry.handler(uri, variables, ctx);
        break;
      }
    }
    if (result === undefined) throw resourceNotFoundError(uri, ctx.protocolVersion);
    const cache = metadata?.cache;
    if (cache !== undefined && ctx.era === 'modern' && result.ttlMs === undefined) {
      return { ...result, ttlMs: cache.ttlMs, cacheScope: cache.cacheScope };
    }
    return result;
  }

  // ---------------------------------------------------------------- completion

  async #complete(
    params:
      | {
          ref?: { type?: unknown; name?: unknown; uri?: unknown };
          argument?: { name?: unknown; value?: unknown };
          context?: { arguments?: Record<string, string> };
        }
      | undefined,
    ctx: ServerRequestContext,
  ): Promise<CompleteResult> {
    const ref = params?.ref;
    const argument = params?.argument;
    if (typeof argument?.name !== 'string' || typeof argument.value !== 'string') {
      throw invalidParamsError('completion/complete needs params.argument {name, value} (strings)');
    }
    let completer: Completer | undefined;
    if (ref?.type === 'ref/prompt') {
      const prompt = typeof ref.name === 'string' ? this.#prompts.get(ref.name) : undefined;
      if (prompt === undefined || !prompt.enabled)
        throw invalidParamsError(`Unknown prompt: ${String(ref.name)}`, { ref });
      const complete = prompt.config.complete;
      completer =
        complete !== undefined && Object.hasOwn(complete, argument.name) ? complete[argument.name] : undefined;
    } else if (ref?.type === 'ref/resource') {
      const entry = this.#templates
        .enabledEntries()
        .find((candidate) => candidate.template.uriTemplate.template === ref.uri);
      if (entry === undefined) throw invalidParamsError(`Unknown resource template: ${String(ref.uri)}`, { ref });
      completer = entry.template.completer(argument.name);
    } else {
      throw invalidParamsError('completion/complete needs params.ref of type "ref/prompt" or "ref/resource"', { ref });
    }
    if (completer === undefined) return { completion: { values: [], hasMore: false } };
    const values = await completer(argument.value, { arguments: params?.context?.arguments ?? {} }, ctx);
    return {
      completion: {
        values: values.slice(0, MAX_COMPLETION_VALUES),
        total: values.length,
        hasMore: values.length > MAX_COMPLETION_VALUES,
      },
    };
  }

  // ---------------------------------------------------------------- plumbing

  #installHandlers(): void {
    const server = this.server;
    server.setRequestHandler('tools/list', (params) => {
      const page = this.#tools.page(params?.cursor, this.#pageSize);
      return page.nextCursor === undefined ? { tools: page.items } : { tools: page.items, nextCursor: page.nextCursor };
    });
    server.setRequestHandler('tools/call', (params, ctx) => this.#callTool(params, ctx));
    server.setRequestHandler('prompts/list', (params) => {
      const page = this.#prompts.page(params?.cursor, this.#pageSize);
      return page.nextCursor === undefined
        ? { prompts: page.items }
        : { prompts: page.items, nextCursor: page.nextCursor };
    });
    server.setRequestHandler('prompts/get', (params, ctx) => this.#getPrompt(params, ctx));
    server.setRequestHandler('resources/list', (params, ctx) => this.#listResources(params?.cursor, ctx));
    server.setRequestHandler('resources/templates/list', (params) => {
      const page = this.#templates.page(params?.cursor, this.#pageSize);
      return page.nextCursor === undefined
        ? { resourceTemplates: page.items }
        : { resourceTemplates: page.items, nextCursor: page.nextCursor };
    });
    server.setRequestHandler('resources/read', (params, ctx) => this.#readResource(params, ctx));
    server.setRequestHandler('completion/complete', (params, ctx) => this.#complete(params as never, ctx));
  }

  #handle<E extends RegistryEntry<D> & { definition: D }, D, Patch>(
    registry: Registry<E, D>,
    entry: E,
    kind: string,
    update: (patch: Patch) => void,
  ): RegisteredHandle<Patch> {
    let removed = false;
    const live = () => {
      if (removed)
        throw new RegistrationError('ERR_REMOVED', `${kind} "${entry.key}" was removed`, { name: entry.key });
    };
    return {
      get name() {
        return (entry as { name?: string }).name ?? entry.key;
      },
      get enabled() {
        return !removed && entry.enabled;
      },
      enable() {
        live();
        if (entry.enabled) return;
        entry.enabled = true;
        registry.changed();
      },
      disable() {
        live();
        if (!entry.enabled) return;
        entry.enabled = false;
        registry.changed();
      },
      update(patch) {
        live();
        update(patch);
      },
      remove() {
        live();
        removed = true;
        registry.delete(entry);
      },
    };
  }

  #listChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    // Nobody to tell (registrations at start-up): a session that connects later lists afresh anyway.
    if (this.server.sessions.size === 0 && this.server.listenStreams.size === 0) return;
    this.#pendingListChanged.add(kind);
    if (this.#listChangedTimer !== undefined) return;
    this.#listChangedTimer = setTimeout(() => {
      this.#listChangedTimer = undefined;
      const kinds = [...this.#pendingListChanged];
      this.#pendingListChanged.clear();
      for (const changed of kinds) this.server.sendListChanged(changed);
    }, this.#debounceMs);
  }
}

export { ResourceTemplate };
