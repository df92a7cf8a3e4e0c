import type { Implementation } from '@mcpkit/protocol';
import { InputRounds, type InputRoundsOptions } from '../input/input-rounds';
import { jsonSchemaCompiler } from '../json-schema/json-schema';
import { type PromptConfig, type PromptHandler, Prompts, type RegisteredPrompt } from '../prompts/prompts';
import type { ResourceTemplate } from '../resources/resource-template';
import {
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type ResourceHandler,
  type ResourceMetadata,
  Resources,
  type ResourceTemplateHandler,
} from '../resources/resources';
import type { SchemaInput } from '../schema/schema';
import { checkMcpHeaders } from '../tools/tool-headers-check';
import { installCompletion } from './completion';
import { McpToolServer, type McpToolServerOptions } from './tool-server';

/**
 * Options for `McpServer`: those of `McpToolServer`, with `jsonSchema` defaulting to `jsonSchemaCompiler`, and those
 * of `InputRounds` (`requestStateSecret`, `requestStateTtlMs`, `nonceStore`, `principalOf`), from which it builds its
 * input rounds unless `inputRounds` is given.
 */
export type McpServerOptions = McpToolServerOptions & InputRoundsOptions;

/**
 * The high-level MCP server: register tools, resources (fixed or templated) and prompts; it answers lists (paginated,
 * in registration order), calls, reads, gets and completions in both protocol eras, derives capabilities from what is
 * registered, and tells clients when lists change. One instance serves any number of sessions. Schemas may be
 * Standard Schemas or plain JSON Schemas; handlers ask the client for input in every revision (through its
 * `InputRounds`). A server with tools only can use `McpToolServer`, which carries none of the resources, prompts,
 * completion, JSON Schema and input-round code unless given them.
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
export class McpServer extends McpToolServer {
  readonly #prompts: Prompts;
  readonly #resources: Resources;

  constructor(serverInfo: Implementation, options: McpServerOptions = {}) {
    const jsonSchema = options.jsonSchema ?? jsonSchemaCompiler;
    super(serverInfo, { ...options, jsonSchema, inputRounds: options.inputRounds ?? new InputRounds(options) });
    this.tools.checkInput = checkMcpHeaders;
    const listChanged = this.listChanged;
    this.#prompts = new Prompts(this.server, this.pageSize, () => listChanged.changed('prompts'), jsonSchema);
    this.#resources = new Resources(this.server, this.pageSize, () => listChanged.changed('resources'));
    installCompletion(this.server, {
      promptCompleters: (name) => this.#prompts.completers(name),
      template: (uriTemplate) => this.#resources.template(uriTemplate),
    });
  }

  /**
   * Tells the clients subscribed to `uri` that the resource changed: legacy sessions that `resources/subscribe`d to it
   * and 2026-07-28 listen streams whose `resourceSubscriptions` name it (with a cluster bus, on every instance).
   *
   * @example
   * server.notifyResourceUpdated('file:///README.md');
   */
  notifyResourceUpdated(uri: string): void {
    this.server.notifyResourceUpdated(uri);
  }

  /**
   * Registers a prompt. Arguments are validated against `argsSchema` (invalid → -32602); `complete` answers
   * `completion/complete` for its arguments.
   *
   * @example
   * server.registerPrompt('review', { argsSchema: z.object({ code: z.string() }) }, ({ code }) => ({
   *   messages: [{ role: 'user', content: { type: 'text', text: `Review:\n${code}` } }],
   * }));
   */
  registerPrompt<const A extends SchemaInput | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): RegisteredPrompt {
    return this.#prompts.register(
      name,
      config as PromptConfig<SchemaInput | undefined>,
      handler as unknown as PromptHandler<never>,
    );
  }

  /**
   * Registers a resource at a fixed URI, or a family of resources under a `ResourceTemplate`.
   *
   * @example
   * server.registerResource('readme', 'file:///README.md', { mimeType: 'text/markdown' }, (uri) => ({
   *   contents: [{ uri, text: '# Hello' }],
   * }));
   */
  registerResource(name: string, uri: string, metadata: ResourceMetadata, handler: ResourceHandler): RegisteredResource;
  registerResource<T extends string>(
    name: string,
    template: ResourceTemplate<T>,
    metadata: ResourceMetadata,
    handler: ResourceTemplateHandler<T>,
  ): RegisteredResourceTemplate;
  registerResource(
    name: string,
    target: string | ResourceTemplate<string>,
    metadata: ResourceMetadata,
    handler: ResourceHandler | ResourceTemplateHandler<string>,
  ): RegisteredResource | RegisteredResourceTemplate {
    return typeof target === 'string'
      ? this.#resources.registerFixed(name, target, metadata, handler as ResourceHandler)
      : this.#resources.registerTemplate(name, target, metadata, handler as ResourceTemplateHandler<string>);
  }
}
