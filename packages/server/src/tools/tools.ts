import { JsonRpcError, JsonRpcErrorCode } from '@mcpkit/jsonrpc-core';
import {
  type CallToolResult,
  type Icon,
  invalidParamsError,
  type Tool,
  type ToolAnnotations,
  type ToolExecution,
  validateToolName,
} from '@mcpkit/protocol';
import { dropUndefined } from '../registry/drop-undefined';
import { pageResult } from '../registry/pagination';
import { createRegisteredHandle, type RegisteredHandle } from '../registry/registered-handle';
import { RegistrationError, Registry, type RegistryEntry } from '../registry/registry';
import {
  type ArgsOf,
  type CompiledSchema,
  compileSchemaWith,
  formatIssues,
  type JsonSchemaCompiler,
  type SchemaCheck,
  SchemaError,
  type SchemaInput,
} from '../schema/schema';
import type { Server } from '../server/server';
import type { ServerRequestContext } from '../session/context';
import { findToolResultProblem, ToolResultError } from './tool-result-check';

/** How a tool is described. */
export interface ToolConfig<
  I extends SchemaInput | undefined = undefined,
  O extends SchemaInput | undefined = undefined,
> {
  /** A name for people (`tools/list`); `name` stays the identifier. */
  title?: string;
  /** What the tool does, for the model and for people. */
  description?: string;
  /**
   * Standard Schema, a raw shape of them (`{ city: z.string() }`) or a JSON Schema (root `type: "object"`) of the
   * arguments; checked at registration, validated before the handler runs.
   */
  inputSchema?: I;
  /** Standard Schema or JSON Schema of `structuredContent`; enforced on every successful result. */
  outputSchema?: O;
  /** Hints about the tool's behaviour (`readOnlyHint`, `destructiveHint`, …); clients must not trust them blindly. */
  annotations?: ToolAnnotations;
  /** Icons clients may show next to the tool (2025-11-25+; dropped for older revisions by the client's own rules). */
  icons?: Icon[];
  /**
   * `execution.taskSupport` (`forbidden` default / `optional` / `required`): whether the tool may run as a task. It
   * is listed in 2025-11-25 only (the revision that has `Tool.execution`); the tasks themselves come from
   * `@mcpkit/tasks`, which reads it with `McpServer.getTool`.
   */
  execution?: ToolExecution;
  /** Extra `_meta` of the tool's definition in `tools/list`. */
  _meta?: Record<string, unknown>;
}

/** Answers `tools/call` for one tool. */
export type ToolHandler<I> = (args: ArgsOf<I>, ctx: ServerRequestContext) => CallToolResult | Promise<CallToolResult>;

/**
 * What `registerTool` returns: enable, disable, update or remove the tool later (clients are told).
 *
 * @example
 * const tool = server.registerTool('echo', { inputSchema: { type: 'object' } }, () => ({ content: [] }));
 * tool.disable(); // hidden from tools/list and refused by tools/call until enable()
 */
export type RegisteredTool = RegisteredHandle<
  Partial<ToolConfig<SchemaInput | undefined, SchemaInput | undefined>> & {
    name?: string;
    handler?: ToolHandler<never>;
  }
>;

type AnyToolConfig = ToolConfig<SchemaInput | undefined, SchemaInput | undefined>;

interface ToolEntry extends RegistryEntry<Tool> {
  name: string;
  config: AnyToolConfig;
  input: CompiledSchema | undefined;
  output: CompiledSchema | undefined;
  handler: ToolHandler<never>;
}

const EMPTY_INPUT_SCHEMA = Object.freeze({ type: 'object', properties: Object.freeze({}) }) as Tool['inputSchema'];
const NO_ARGS = Object.freeze({});
/** The only revision whose `Tool` has `execution` (core tasks); others get the definitions without it. */
const EXECUTION_VERSION = '2025-11-25';

function withoutExecution(tool: Tool): Tool {
  const { execution: _execution, ...rest } = tool;
  return rest;
}
const warnedToolNames = new Set<string>();

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function checkToolName(name: string): void {
  const verdict = validateToolName(name);
  if (!verdict.ok) throw new RegistrationError('ERR_INVALID_NAME', verdict.reason, { name });
  if (verdict.warnings.length > 0 && !warnedToolNames.has(name)) {
    warnedToolNames.add(name);
    console.warn(`[mcpkit] ${verdict.warnings.join('; ')}`);
  }
}

/** What a tool's registration (and each update) makes of it: its schemas compiled once, its wire definition. */
function toolParts(
  name: string,
  config: AnyToolConfig,
  handler: ToolHandler<never>,
  jsonSchema: JsonSchemaCompiler | undefined,
  checkInput: ToolInputCheck | undefined,
): Omit<ToolEntry, 'key' | 'enabled'> {
  const input =
    config.inputSchema === undefined
      ? undefined
      : compileSchemaWith(config.inputSchema, 'input', `Tool "${name}" inputSchema`, jsonSchema);
  if (input !== undefined && input.jsonSchema.type !== 'object') {
    throw new SchemaError(
      `Tool "${name}": inputSchema must describe an object (root "type": "object"; got ${JSON.stringify(input.jsonSchema.type) ?? 'none'}). Write { type: 'object', properties: { … } }, z.object({ … }), or a shape of schemas such as { city: z.string() }.`,
      { name, type: input.jsonSchema.type },
    );
  }
  if (input !== undefined && checkInput !== undefined) checkInput(name, input.jsonSchema);
  const output =
    config.outputSchema === undefined
      ? undefined
      : compileSchemaWith(config.outputSchema, 'output', `Tool "${name}" outputSchema`, jsonSchema);
  const definition = dropUndefined({
    name,
    title: config.title,
    description: config.description,
    inputSchema: (input?.jsonSchema ?? EMPTY_INPUT_SCHEMA) as Tool['inputSchema'],
    outputSchema: output?.jsonSchema,
    annotations: config.annotations,
    icons: config.icons,
    execution: config.execution,
    _meta: config._meta,
  }) as Tool;
  return { name, definition, config, input, output, handler };
}

/** Refuses a tool's input schema at registration by throwing a `SchemaError` (see `Tools.checkInput`). */
export type ToolInputCheck = (name: string, jsonSchema: Record<string, unknown>) => void;

/**
 * The tools feature of `McpServer`: registration, `tools/list` and `tools/call` (input validation, `outputSchema`
 * enforcement, handler errors mapped to `isError` results).
 */
export class Tools {
  readonly #server: Server;
  readonly #registry: Registry<ToolEntry, Tool>;
  /** Whether a tool ever declared `execution`: only then do lists outside 2025-11-25 need stripping. */
  #anyExecution = false;
  readonly #jsonSchema: JsonSchemaCompiler | undefined;
  /**
   * An extra check of each input schema at registration: `McpServer` refuses invalid `x-mcp-header` declarations
   * here (see `checkMcpHeaders`). Header mirroring is Streamable HTTP's, so the lean server leaves it to the HTTP
   * handler, which reports such tools when it indexes them.
   */
  checkInput: ToolInputCheck | undefined = undefined;

  constructor(server: Server, pageSize: number, onListChanged: () => void, jsonSchema: JsonSchemaCompiler | undefined) {
    this.#server = server;
    this.#jsonSchema = jsonSchema;
    this.#registry = new Registry(onListChanged);
    server.setRequestHandler('tools/list', (params, ctx) => {
      const page = this.#registry.page(params?.cursor, pageSize);
      if (this.#anyExecution && ctx.protocolVersion !== EXECUTION_VERSION) {
        page.items = page.items.map((tool) => (tool.execution === undefined ? tool : withoutExecution(tool)));
      }
      return pageResult('tools', page);
    });
    server.setRequestHandler('tools/call', (params, ctx) => this.#call(params, ctx));
  }

  /** See `McpServer.registerTool`. */
  register(name: string, config: AnyToolConfig, handler: ToolHandler<never>): RegisteredTool {
    this.#checkFree(name);
    const entry: ToolEntry = {
      key: name,
      enabled: true,
      ...toolParts(name, config, handler, this.#jsonSchema, this.checkInput),
    };
    if (!this.#server.declares(['tools'])) this.#server.registerCapabilities({ tools: { listChanged: true } });
    if (config.execution !== undefined) this.#anyExecution = true;
    this.#registry.add(entry);
    return createRegisteredHandle(this.#registry, entry, 'Tool', (patch: Parameters<RegisteredTool['update']>[0]) => {
      const nextName = patch.name ?? entry.name;
      if (nextName !== entry.name) this.#checkFree(nextName);
      const { name: _name, handler: nextHandler, ...configPatch } = patch;
      Object.assign(
        entry,
        toolParts(
          nextName,
          { ...entry.config, ...configPatch },
          nextHandler ?? entry.handler,
          this.#jsonSchema,
          this.checkInput,
        ),
      );
      if (entry.config.execution !== undefined) this.#anyExecution = true;
      this.#registry.updated(entry, nextName);
    });
  }

  /** The wire definition of the enabled tool `name`, or `undefined`. */
  definition(name: string): Tool | undefined {
    const entry = this.#registry.get(name);
    return entry?.enabled === true ? entry.definition : undefined;
  }

  #checkFree(name: string): void {
    checkToolName(name);
    if (this.#registry.has(name)) {
      throw new RegistrationError('ERR_DUPLICATE', `Tool "${name}" is already registered`, { name });
    }
  }

  /**
   * tools/call. The common path (arguments validated at once, one run of the handler) is plain calls and one `.then`:
   * an async function's frame and awaits cost more than the call's own objects. What the checks throw still rejects.
   */
  #call(
    params: { name?: unknown; arguments?: unknown } | undefined,
    ctx: ServerRequestContext,
  ): Promise<CallToolResult> {
    const name = params?.name;
    const tool = typeof name === 'string' ? this.#registry.get(name) : undefined;
    if (tool === undefined || !tool.enabled) {
      return Promise.reject(invalidParamsError(`Unknown tool: ${String(name)}`, { name }));
    }
    const args: unknown = params!.arguments ?? NO_ARGS;
    if (tool.input === undefined) return this.#run(tool, args, ctx);
    let verdict: SchemaCheck | Promise<SchemaCheck>;
    try {
      verdict = tool.input.validate(args);
    } catch (error) {
      return Promise.reject(error);
    }
    if (verdict instanceof Promise) return verdict.then((settled) => this.#validated(tool, settled, ctx));
    return this.#validated(tool, verdict, ctx);
  }

  #validated(tool: ToolEntry, verdict: SchemaCheck, ctx: ServerRequestContext): Promise<CallToolResult> {
    if (!verdict.ok) {
      // SEP-1303: the model can read and fix an input error, so it is a tool result, not a protocol error.
      return Promise.resolve(errorResult(`Invalid arguments for tool ${tool.name}:\n${formatIssues(verdict.issues)}`));
    }
    return this.#run(tool, verdict.value, ctx);
  }

  /** Runs the handler; what it throws (a JSON-RPC error aside) is a tool error the model can read. */
  #run(tool: ToolEntry, args: unknown, ctx: ServerRequestContext): Promise<CallToolResult> {
    let ran: CallToolResult | Promise<CallToolResult>;
    try {
      ran = tool.handler(args as never, ctx);
    } catch (error) {
      return JsonRpcError.is(error) ? Promise.reject(error) : Promise.resolve(thrownResult(error));
    }
    return Promise.resolve(ran).then(
      (result) => this.#checked(tool, result, ctx),
      (error: unknown) => {
        if (JsonRpcError.is(error)) throw error;
        return thrownResult(error);
      },
    );
  }

  /** What the tool returned, checked: its shape, and its structuredContent against its outputSchema. */
  #checked(
    tool: ToolEntry,
    result: CallToolResult,
    ctx: ServerRequestContext,
  ): CallToolResult | Promise<CallToolResult> {
    // A result an extension owns (a task handle: `resultType: "task"`) is not the tool's output.
    const taskHandle = (result as { resultType?: unknown }).resultType === 'task';
    // A malformed result is the tool author's bug: say so on the server, and give the caller a tool error naming it
    // instead of a result its client would refuse.
    const problem = taskHandle ? undefined : findToolResultProblem(result, ctx.protocolVersion);
    if (problem !== undefined) {
      const message = `Tool "${tool.name}" returned an invalid result: ${problem.field} ${problem.message}`;
      const report = this.#server.onerror ?? console.error;
      report(new ToolResultError('ERR_INVALID_TOOL_RESULT', message, { tool: tool.name, ...problem }));
      return errorResult(message);
    }
    if (tool.output === undefined || result.isError === true || taskHandle) return result;
    if (result.structuredContent === undefined) {
      throw new JsonRpcError(
        JsonRpcErrorCode.InternalError,
        `Tool ${tool.name} declares an outputSchema but returned no structuredContent`,
        { tool: tool.name },
      );
    }
    const verdict = tool.output.validate(result.structuredContent);
    if (verdict instanceof Promise) return verdict.then((settled) => outputChecked(tool.name, settled, result));
    return outputChecked(tool.name, verdict, result);
  }
}

/** The result of a tool whose handler threw: the error's message, as a tool error. */
function thrownResult(error: unknown): CallToolResult {
  return errorResult(error instanceof Error ? error.message : String(error));
}

/** `result` when its structuredContent matched the tool's outputSchema; a -32603 naming the issues otherwise. */
function outputChecked(tool: string, verdict: SchemaCheck, result: CallToolResult): CallToolResult {
  if (!verdict.ok) {
    throw new JsonRpcError(
      JsonRpcErrorCode.InternalError,
      `Tool ${tool} returned structuredContent that does not match its outputSchema:\n${formatIssues(verdict.issues)}`,
      { tool, issues: verdict.issues },
    );
  }
  return result;
}
