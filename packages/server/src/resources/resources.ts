import {
  type Annotations,
  type Icon,
  invalidParamsError,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate as ResourceTemplateDefinition,
  resourceNotFoundError,
} from '@mcpkit/protocol';
import { type CacheHint, hintCache } from '../eras/era-rules';
import { installResourceSubscriptions } from '../listen/resource-subscriptions';
import { dropUndefined } from '../registry/drop-undefined';
import { pageResult, paginate } from '../registry/pagination';
import { createRegisteredHandle, type RegisteredHandle } from '../registry/registered-handle';
import { RegistrationError, Registry, type RegistryEntry } from '../registry/registry';
import type { Server } from '../server/server';
import type { ServerRequestContext } from '../session/context';
import type { TemplateVariables } from '../uri-template/uri-template-types';
import type { ResourceTemplate } from './resource-template';

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
 * `variables` are typed from the template string `T` (`{name}` → `name: string`; see `TemplateVariables`).
 */
export type ResourceTemplateHandler<T extends string = string> = (
  uri: string,
  variables: TemplateVariables<T>,
  ctx: ServerRequestContext,
) => ReadResourceResult | undefined | Promise<ReadResourceResult | undefined>;

type ResourcePatch = Partial<ResourceMetadata> & { name?: string; uri?: string; handler?: ResourceHandler };
type TemplatePatch = Partial<ResourceMetadata> & {
  name?: string;
  template?: ResourceTemplate;
  handler?: ResourceTemplateHandler;
};
/**
 * What `registerResource` returns for a fixed URI: enable, disable, update or remove it later (clients are told).
 *
 * @example
 * const menu = server.registerResource('menu', 'trattoria://menu', {}, () => ({ contents: [] }));
 * menu.remove();
 */
export type RegisteredResource = RegisteredHandle<ResourcePatch>;
/**
 * What `registerResource` returns for a `ResourceTemplate`: enable, disable, update or remove it later.
 *
 * @example
 * const dish = server.registerResource('dish', new ResourceTemplate('trattoria://dish/{id}'), {}, read);
 * dish.disable();
 */
export type RegisteredResourceTemplate = RegisteredHandle<TemplatePatch>;

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

function resourceDefinition(name: string, uri: string, metadata: ResourceMetadata): Resource {
  const { cache: _cache, ...rest } = metadata;
  return dropUndefined({ uri, name, ...rest }) as Resource;
}

function templateDefinition(
  name: string,
  template: ResourceTemplate,
  metadata: ResourceMetadata,
): ResourceTemplateDefinition {
  const { cache: _cache, size: _size, ...rest } = metadata;
  return dropUndefined({ uriTemplate: template.uriTemplate.template, name, ...rest }) as ResourceTemplateDefinition;
}

/**
 * The resources feature of `McpServer`: fixed resources and templates, `resources/list` (fixed ones first, then what
 * templates list), `resources/templates/list` and `resources/read` (cache hints from the resource's metadata).
 * Also resource subscriptions (`installResourceSubscriptions`), which only a server with resources carries.
 */
export class Resources {
  readonly #server: Server;
  readonly #pageSize: number;
  readonly #resources: Registry<ResourceEntry, Resource>;
  readonly #templates: Registry<TemplateEntry, ResourceTemplateDefinition>;

  constructor(server: Server, pageSize: number, onListChanged: () => void) {
    this.#server = server;
    this.#pageSize = pageSize;
    this.#resources = new Registry(onListChanged);
    this.#templates = new Registry(onListChanged);
    server.setRequestHandler('resources/list', (params, ctx) => this.#list(params?.cursor, ctx));
    server.setRequestHandler('resources/templates/list', (params) =>
      pageResult('resourceTemplates', this.#templates.page(params?.cursor, pageSize)),
    );
    server.setRequestHandler('resources/read', (params, ctx) => this.#read(params, ctx));
    installResourceSubscriptions(server);
  }

  /** See `McpServer.registerResource` (a fixed URI). */
  registerFixed(name: string, uri: string, metadata: ResourceMetadata, handler: ResourceHandler): RegisteredResource {
    this.#declare();
    this.#checkUriFree(uri);
    const entry: ResourceEntry = {
      key: uri,
      name,
      enabled: true,
      metadata,
      handler,
      definition: resourceDefinition(name, uri, metadata),
    };
    this.#resources.add(entry);
    return createRegisteredHandle(this.#resources, entry, 'Resource', (patch: ResourcePatch) => {
      const { name: nextName, uri: nextUri, handler: nextHandler, ...metadataPatch } = patch;
      const nextKey = nextUri ?? entry.key;
      if (nextKey !== entry.key) this.#checkUriFree(nextKey);
      entry.name = nextName ?? entry.name;
      entry.metadata = { ...entry.metadata, ...metadataPatch };
      entry.handler = nextHandler ?? entry.handler;
      entry.definition = resourceDefinition(entry.name, nextKey, entry.metadata);
      this.#resources.updated(entry, nextKey);
    });
  }

  /** See `McpServer.registerResource` (a `ResourceTemplate`). */
  registerTemplate(
    name: string,
    template: ResourceTemplate,
    metadata: ResourceMetadata,
    handler: ResourceTemplateHandler,
  ): RegisteredResourceTemplate {
    this.#declare();
    this.#checkTemplateNameFree(name);
    if (!this.#server.declares(['completions'])) this.#server.registerCapabilities({ completions: {} });
    const entry: TemplateEntry = {
      key: name,
      enabled: true,
      metadata,
      template,
      handler,
      definition: templateDefinition(name, template, metadata),
    };
    this.#templates.add(entry);
    return createRegisteredHandle(this.#templates, entry, 'Resource template', (patch: TemplatePatch) => {
      const { name: nextName, template: nextTemplate, handler: nextHandler, ...metadataPatch } = patch;
      const nextKey = nextName ?? entry.key;
      if (nextKey !== entry.key) this.#checkTemplateNameFree(nextKey);
      entry.template = nextTemplate ?? entry.template;
      entry.metadata = { ...entry.metadata, ...metadataPatch };
      entry.handler = nextHandler ?? entry.handler;
      entry.definition = templateDefinition(nextKey, entry.template, entry.metadata);
      this.#templates.updated(entry, nextKey);
    });
  }

  /** The enabled template whose URI template is exactly `uriTemplate`, if any (for `completion/complete`). */
  template(uriTemplate: string): ResourceTemplate | undefined {
    return this.#templates.enabledEntries().find((entry) => entry.template.uriTemplate.template === uriTemplate)
      ?.template;
  }

  #declare(): void {
    if (!this.#server.declares(['resources'])) {
      this.#server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
    }
  }

  #checkUriFree(uri: string): void {
    if (this.#resources.has(uri)) {
      throw new RegistrationError('ERR_DUPLICATE', `A resource at "${uri}" is already registered`, { uri });
    }
  }

  #checkTemplateNameFree(name: string): void {
    if (this.#templates.has(name)) {
      throw new RegistrationError('ERR_DUPLICATE', `A resource template named "${name}" is already registered`, {
        name,
      });
    }
  }

  async #list(cursor: unknown, ctx: ServerRequestContext) {
    const templates = this.#templates.enabledEntries().filter((entry) => entry.template.callbacks.list !== undefined);
    if (templates.length === 0) return pageResult('resources', this.#resources.page(cursor, this.#pageSize));
    const all: Resource[] = this.#resources.enabledEntries().map((entry) => entry.definition);
    for (const entry of templates) all.push(...(await entry.template.callbacks.list!(ctx)));
    // Either registry changing invalidates cursors into the combined list.
    const version = this.#resources.version * 65_536 + this.#templates.version;
    return pageResult('resources', paginate(all, cursor, this.#pageSize, version));
  }

  async #read(params: { uri?: unknown } | undefined, ctx: ServerRequestContext) {
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
    if (cache !== undefined) hintCache(ctx, cache);
    return result;
  }
}
