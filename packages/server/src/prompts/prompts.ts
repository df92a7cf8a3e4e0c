import {
  type GetPromptResult,
  type Icon,
  invalidParamsError,
  type Prompt,
  type PromptArgument,
} from '@mcpkit/protocol';
import { dropUndefined } from '../registry/drop-undefined';
import { pageResult } from '../registry/pagination';
import { createRegisteredHandle, type RegisteredHandle } from '../registry/registered-handle';
import { RegistrationError, Registry, type RegistryEntry } from '../registry/registry';
import type { Completer } from '../resources/resource-template';
import {
  type ArgsOf,
  type CompiledSchema,
  compileSchemaWith,
  formatIssues,
  type JsonSchemaCompiler,
  type SchemaInput,
} from '../schema/schema';
import type { Server } from '../server/server';
import type { ServerRequestContext } from '../session/context';

/** How a prompt is described. */
export interface PromptConfig<A extends SchemaInput | undefined = undefined> {
  /** A name for people (`prompts/list`); `name` stays the identifier. */
  title?: string;
  /** What the prompt is for. */
  description?: string;
  /**
   * Standard Schema, a raw shape of them or a JSON Schema of the (string) arguments; its properties become the
   * prompt's `arguments` (with `required` from the schema).
   */
  argsSchema?: A;
  /** Completers for arguments, by argument name. */
  complete?: Record<string, Completer>;
  /** Icons clients may show next to the prompt. */
  icons?: Icon[];
  /** Extra `_meta` of the prompt's definition in `prompts/list`. */
  _meta?: Record<string, unknown>;
}

/** Answers `prompts/get` for one prompt. */
export type PromptHandler<A> = (
  args: ArgsOf<A>,
  ctx: ServerRequestContext,
) => GetPromptResult | Promise<GetPromptResult>;

/**
 * What `registerPrompt` returns: enable, disable, update or remove the prompt later (clients are told).
 *
 * @example
 * const prompt = server.registerPrompt('greet', { description: 'Greets' }, () => ({ messages: [] }));
 * prompt.update({ description: 'Greets warmly' });
 */
export type RegisteredPrompt = RegisteredHandle<
  Partial<PromptConfig<SchemaInput | undefined>> & { name?: string; handler?: PromptHandler<never> }
>;

interface PromptEntry extends RegistryEntry<Prompt> {
  config: PromptConfig<SchemaInput | undefined>;
  args: CompiledSchema | undefined;
  handler: PromptHandler<never>;
}

const NO_ARGS = Object.freeze({});
const NO_COMPLETERS: Readonly<Record<string, Completer>> = Object.freeze({});

/** Compiles a prompt's argument schema once and derives its wire `arguments` from the schema's properties. */
function promptEntry(
  name: string,
  config: PromptConfig<SchemaInput | undefined>,
  handler: PromptHandler<never>,
  jsonSchema: JsonSchemaCompiler | undefined,
): PromptEntry {
  const args =
    config.argsSchema === undefined
      ? undefined
      : compileSchemaWith(config.argsSchema, 'input', `Prompt "${name}" argsSchema`, jsonSchema);
  let argumentList: PromptArgument[] | undefined;
  if (args !== undefined) {
    const properties = (args.jsonSchema.properties ?? {}) as Record<string, { description?: string; title?: string }>;
    const required = new Set((args.jsonSchema.required as string[] | undefined) ?? []);
    argumentList = Object.entries(properties).map(([argName, property]) =>
      dropUndefined({
        name: argName,
        title: property?.title,
        description: property?.description,
        required: required.has(argName),
      }),
    );
  }
  const definition = dropUndefined({
    name,
    title: config.title,
    description: config.description,
    arguments: argumentList,
    icons: config.icons,
    _meta: config._meta,
  }) as Prompt;
  return { key: name, enabled: true, definition, config, args, handler };
}

/** The prompts feature of `McpServer`: registration, `prompts/list` and `prompts/get` (argument validation). */
export class Prompts {
  readonly #server: Server;
  readonly #registry: Registry<PromptEntry, Prompt>;
  readonly #jsonSchema: JsonSchemaCompiler | undefined;

  constructor(server: Server, pageSize: number, onListChanged: () => void, jsonSchema: JsonSchemaCompiler | undefined) {
    this.#server = server;
    this.#jsonSchema = jsonSchema;
    this.#registry = new Registry(onListChanged);
    server.setRequestHandler('prompts/list', (params) =>
      pageResult('prompts', this.#registry.page(params?.cursor, pageSize)),
    );
    server.setRequestHandler('prompts/get', (params, ctx) => this.#get(params, ctx));
  }

  /** See `McpServer.registerPrompt`. */
  register(
    name: string,
    config: PromptConfig<SchemaInput | undefined>,
    handler: PromptHandler<never>,
  ): RegisteredPrompt {
    this.#checkFree(name);
    const entry = promptEntry(name, config, handler, this.#jsonSchema);
    if (!this.#server.declares(['prompts'])) this.#server.registerCapabilities({ prompts: { listChanged: true } });
    if (!this.#server.declares(['completions'])) this.#server.registerCapabilities({ completions: {} });
    this.#registry.add(entry);
    return createRegisteredHandle(
      this.#registry,
      entry,
      'Prompt',
      (patch: Parameters<RegisteredPrompt['update']>[0]) => {
        const nextName = patch.name ?? entry.key;
        if (nextName !== entry.key) this.#checkFree(nextName);
        const { name: _name, handler: nextHandler, ...configPatch } = patch;
        const next = promptEntry(
          nextName,
          { ...entry.config, ...configPatch },
          nextHandler ?? entry.handler,
          this.#jsonSchema,
        );
        entry.config = next.config;
        entry.args = next.args;
        entry.handler = next.handler;
        entry.definition = next.definition;
        this.#registry.updated(entry, nextName);
      },
    );
  }

  /**
   * The argument completers of the enabled prompt `name` (empty when it has none), or `undefined` when no enabled
   * prompt has that name.
   */
  completers(name: string): Readonly<Record<string, Completer>> | undefined {
    const prompt = this.#registry.get(name);
    if (prompt === undefined || !prompt.enabled) return undefined;
    return prompt.config.complete ?? NO_COMPLETERS;
  }

  #checkFree(name: string): void {
    if (this.#registry.has(name)) {
      throw new RegistrationError('ERR_DUPLICATE', `Prompt "${name}" is already registered`, { name });
    }
  }

  async #get(params: { name?: unknown; arguments?: unknown } | undefined, ctx: ServerRequestContext) {
    const name = params?.name;
    const prompt = typeof name === 'string' ? this.#registry.get(name) : undefined;
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
}
