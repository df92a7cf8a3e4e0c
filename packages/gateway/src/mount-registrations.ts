// What a mount registers on the gateway's server: the upstream's tools, prompts, resources and templates under the
// mount's names, kept in line with what the upstream lists (re-registered when a definition changes), each handler
// forwarding to the upstream.
import type { Client } from '@mcpkit/client';
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ServerCapabilities,
  Tool,
  ToolExecution,
  ResourceTemplate as WireResourceTemplate,
} from '@mcpkit/protocol';
import { type McpServer, RegistrationError, ResourceTemplate, type ServerRequestContext } from '@mcpkit/server';
import { downstreamBlocks } from './content-uris';
import { passes } from './filter';
import { GatewayError } from './gateway-error';
import type { MountOptions } from './mount-options';
import type { MountNames } from './names';
import { passThroughSchema } from './pass-through-schema';

/** A list an upstream keeps: `resources` covers resources and resource templates. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** What the registrations of one mount need of the mount and its gateway. */
export interface RegistrationsHost {
  readonly server: McpServer;
  readonly namespace: string;
  readonly names: MountNames;
  /** Claims a downstream name for the mount; throws `ERR_NAME_COLLISION` naming both owners. */
  claim(kind: 'tool' | 'prompt', name: string): void;
  release(kind: 'tool' | 'prompt', name: string): void;
  warn(message: string, data: Record<string, unknown>): void;
  forward<R>(ctx: ServerRequestContext, method: string, params: Record<string, unknown>): Promise<R>;
  /** Calls an upstream tool (as a task when the downstream asked for one and tasks cross). */
  callTool(
    ctx: ServerRequestContext,
    name: string,
    args: Record<string, unknown> | undefined,
    downstream: ((result: CallToolResult) => CallToolResult) | undefined,
  ): Promise<CallToolResult>;
  /** How the downstream may run an upstream tool as a task; `undefined` when tasks do not cross. */
  execution(tool: Tool): ToolExecution | undefined;
  /** Marks a downstream tool whose calls the gateway's handler turns into tasks (or not). */
  startsInHandler(name: string, on: boolean): void;
  read(ctx: ServerRequestContext, upstreamUri: string): Promise<ReadResourceResult>;
}

interface Exposed<H> {
  upstream: string;
  /** The upstream definition, as JSON: a change of it re-registers the item. */
  signature: string;
  handle: H;
}

interface Removable {
  remove(): void;
}

/** The items one mount has registered on the server now, by downstream name or URI. */
export class MountRegistrations {
  readonly #host: RegistrationsHost;
  readonly #options: MountOptions;
  readonly #tools = new Map<string, Exposed<Removable>>();
  readonly #prompts = new Map<string, Exposed<Removable>>();
  readonly #resources = new Map<string, Exposed<Removable>>();
  readonly #templates = new Map<string, Exposed<Removable>>();

  constructor(host: RegistrationsHost, options: MountOptions) {
    this.#host = host;
    this.#options = options;
  }

  /** The downstream names exposed now, by kind (tools, prompts: names; resources, templates: URIs). */
  exposed(): { tools: string[]; prompts: string[]; resources: string[]; resourceTemplates: string[] } {
    return {
      tools: [...this.#tools.keys()],
      prompts: [...this.#prompts.keys()],
      resources: [...this.#resources.keys()],
      resourceTemplates: [...this.#templates.keys()],
    };
  }

  /** The upstream name of a downstream tool or prompt name, if it is one of these. */
  upstreamName(kind: 'tool' | 'prompt', name: string): string | undefined {
    return (kind === 'tool' ? this.#tools : this.#prompts).get(name)?.upstream;
  }

  /** Whether `uriTemplate` (a downstream URI template) is registered here. */
  hasTemplate(uriTemplate: string): boolean {
    return this.#templates.has(uriTemplate);
  }

  /** Registers every list the upstream declares. */
  async syncAll(client: Client, first: boolean): Promise<void> {
    const capabilities: ServerCapabilities = client.serverCapabilities ?? {};
    if (capabilities.tools !== undefined) await this.sync(client, 'tools', first);
    if (capabilities.prompts !== undefined) await this.sync(client, 'prompts', first);
    if (capabilities.resources !== undefined) await this.sync(client, 'resources', first);
  }

  /** Lists one kind again and reconciles it; whether anything changed. */
  async sync(client: Client, kind: ListKind, first: boolean): Promise<boolean> {
    if (kind === 'tools') {
      const tools = await client.listAllTools();
      return this.#reconcile(
        this.#tools,
        tools.filter((tool) => passes(this.#options.tools, tool.name)),
        (tool) => this.#host.names.exposed(tool.name, this.#options.rename?.tools),
        (exposed, tool) => this.#registerTool(exposed, tool),
        'tool',
        first,
      );
    } else if (kind === 'prompts') {
      const prompts = await client.listAllPrompts();
      return this.#reconcile(
        this.#prompts,
        prompts.filter((prompt) => passes(this.#options.prompts, prompt.name)),
        (prompt) => this.#host.names.exposed(prompt.name, this.#options.rename?.prompts),
        (exposed, prompt) => this.#registerPrompt(exposed, prompt),
        'prompt',
        first,
      );
    } else {
      const [resources, templates] = await Promise.all([
        client.listAllResources(),
        client.listAllResourceTemplates().catch(() => [] as WireResourceTemplate[]),
      ]);
      const resourcesChanged = this.#reconcile(
        this.#resources,
        resources.filter((resource) => passes(this.#options.resources, resource.uri)),
        (resource) => this.#host.names.uri(resource.uri),
        (exposed, resource) => this.#registerResource(exposed, resource),
        undefined,
        first,
      );
      const templatesChanged = this.#reconcile(
        this.#templates,
        templates.filter((template) => passes(this.#options.resources, template.uriTemplate)),
        (template) => this.#host.names.uri(template.uriTemplate),
        (exposed, template) => this.#registerTemplate(exposed, template),
        undefined,
        first,
      );
      return resourcesChanged || templatesChanged;
    }
  }

  /**
   * Brings one registry in line with what the upstream lists: removes what went, re-registers what changed, adds what
   * came. All of it lands in one debounced `list_changed`. A collision refuses the first listing and skips the item
   * (with a warning) later.
   */
  #reconcile<T extends Tool | Prompt | Resource | WireResourceTemplate>(
    current: Map<string, Exposed<Removable>>,
    items: readonly T[],
    exposedOf: (item: T) => string,
    register: (exposed: string, item: T) => Removable,
    claims: 'tool' | 'prompt' | undefined,
    first: boolean,
  ): boolean {
    let changed = false;
    const wanted = new Map<string, T>();
    for (const item of items) wanted.set(exposedOf(item), item);
    for (const [exposed, entry] of current) {
      const item = wanted.get(exposed);
      if (item !== undefined && JSON.stringify(item) === entry.signature) continue;
      this.#unregister(current, exposed, claims);
      changed = true;
    }
    for (const [exposed, item] of wanted) {
      if (current.has(exposed)) continue;
      const upstream = 'uri' in item ? item.uri : 'uriTemplate' in item ? item.uriTemplate : item.name;
      try {
        if (claims !== undefined) this.#host.claim(claims, exposed);
        let handle: Removable;
        try {
          handle = register(exposed, item);
        } catch (error) {
          if (claims !== undefined) this.#host.release(claims, exposed);
          throw error;
        }
        current.set(exposed, { upstream, signature: JSON.stringify(item), handle });
        changed = true;
      } catch (error) {
        const refused = this.#refusal(error, claims, exposed, upstream);
        if (first && GatewayError.is(refused)) throw refused;
        this.#host.warn(refused.message, { mount: this.#host.namespace, name: exposed });
      }
    }
    return changed;
  }

  /** A collision with the server's own registration, named as such; other registration errors as they are. */
  #refusal(error: unknown, kind: 'tool' | 'prompt' | undefined, exposed: string, upstream: string): Error {
    if (RegistrationError.is(error) && error.code === 'ERR_DUPLICATE' && kind !== undefined) {
      return new GatewayError(
        'ERR_NAME_COLLISION',
        `mount '${this.#host.namespace}': its ${kind} '${upstream}' would be exposed as '${exposed}', which the server already registered itself; rename it (options.rename) or filter it out`,
        { mount: this.#host.namespace, kind, name: exposed, upstream, other: 'the server' },
      );
    }
    if (GatewayError.is(error)) return error;
    return new Error(
      `mount '${this.#host.namespace}': '${upstream}' could not be registered as '${exposed}': ${(error as Error)?.message ?? error}`,
    );
  }

  #unregister(current: Map<string, Exposed<Removable>>, exposed: string, claims: 'tool' | 'prompt' | undefined): void {
    const entry = current.get(exposed);
    if (entry === undefined) return;
    current.delete(exposed);
    entry.handle.remove();
    if (claims !== undefined) this.#host.release(claims, exposed);
  }

  /** Removes everything registered here. */
  unregisterAll(): void {
    for (const exposed of [...this.#tools.keys()]) this.#unregister(this.#tools, exposed, 'tool');
    for (const exposed of [...this.#prompts.keys()]) this.#unregister(this.#prompts, exposed, 'prompt');
    for (const exposed of [...this.#resources.keys()]) this.#unregister(this.#resources, exposed, undefined);
    for (const exposed of [...this.#templates.keys()]) this.#unregister(this.#templates, exposed, undefined);
  }

  #registerTool(exposed: string, tool: Tool): Removable {
    const upstreamName = tool.name;
    const execution = this.#host.execution(tool);
    // Made once per tool, and none at all without a URI prefix (the result passes as it is).
    const names = this.#host.names;
    const downstream =
      names.uriPrefix === ''
        ? undefined
        : (result: CallToolResult) =>
            Array.isArray(result?.content) ? { ...result, content: downstreamBlocks(names, result.content) } : result;
    const registered = this.#host.server.registerTool(
      exposed,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: passThroughSchema(tool.inputSchema as Record<string, unknown>),
        outputSchema:
          tool.outputSchema === undefined ? undefined : passThroughSchema(tool.outputSchema as Record<string, unknown>),
        annotations: tool.annotations,
        icons: tool.icons,
        _meta: tool._meta,
        ...(execution === undefined ? {} : { execution }),
      },
      (args, ctx) => this.#host.callTool(ctx, upstreamName, args, downstream),
    );
    if (execution === undefined) return registered;
    this.#host.startsInHandler(exposed, true);
    return {
      remove: () => {
        this.#host.startsInHandler(exposed, false);
        registered.remove();
      },
    };
  }

  #registerPrompt(exposed: string, prompt: Prompt): Removable {
    const upstreamName = prompt.name;
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const argument of prompt.arguments ?? []) {
      properties[argument.name] =
        argument.description === undefined ? { type: 'string' } : { type: 'string', description: argument.description };
      if (argument.required === true) required.push(argument.name);
    }
    return this.#host.server.registerPrompt(
      exposed,
      {
        title: prompt.title,
        description: prompt.description,
        argsSchema:
          prompt.arguments === undefined ? undefined : passThroughSchema({ type: 'object', properties, required }),
        icons: prompt.icons,
        _meta: prompt._meta,
      },
      async (args, ctx) => {
        const result = await this.#host.forward<GetPromptResult>(ctx, 'prompts/get', {
          name: upstreamName,
          ...(args === undefined ? {} : { arguments: args }),
        });
        if (this.#host.names.uriPrefix === '' || !Array.isArray(result?.messages)) return result;
        return {
          ...result,
          messages: result.messages.map((message) => {
            const [content] = downstreamBlocks(this.#host.names, [message.content]);
            return content === message.content ? message : { ...message, content: content as typeof message.content };
          }),
        };
      },
    );
  }

  #registerResource(exposed: string, resource: Resource): Removable {
    return this.#host.server.registerResource(
      resource.name,
      exposed,
      {
        title: resource.title,
        description: resource.description,
        mimeType: resource.mimeType,
        annotations: resource.annotations,
        icons: resource.icons,
        size: resource.size,
        _meta: resource._meta,
      },
      (uri, ctx) => this.#host.read(ctx, this.#host.names.upstreamUri(uri) ?? uri),
    );
  }

  #registerTemplate(exposed: string, template: WireResourceTemplate): Removable {
    return this.#host.server.registerResource(
      template.name,
      new ResourceTemplate(exposed),
      {
        title: template.title,
        description: template.description,
        mimeType: template.mimeType,
        annotations: template.annotations,
        icons: template.icons,
        _meta: template._meta,
      },
      (uri, _variables, ctx) => this.#host.read(ctx, this.#host.names.upstreamUri(uri) ?? uri),
    );
  }
}
