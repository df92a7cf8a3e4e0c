import { type CallToolResult, type LoggingLevel, methodAvailability, type Tool } from '@mcpkit/protocol';
import type { Command } from 'commander';
import { parseArguments } from '../arguments';
import { CliError } from '../exit-codes';
import { type CliIo, note } from '../io';
import { describeContent, describeToolResult, printJson, printLines, table } from '../output';
import { missingRequired, type ObjectSchema, promptForProperties } from '../schema-prompts';
import { openSession, printLog, type Session, type SessionHooks, type SessionOptions } from '../session';
import { parseTarget } from '../target';

/** What a command hands back: the JSON document (`--json`), the lines a person reads, and the exit code. */
export interface Outcome {
  json: unknown;
  lines: string[];
  exitCode?: number;
}

/** Shared by every command that talks to a server: the words after `--` (a stdio server's command line). */
export interface TalkContext {
  io: CliIo;
  command: readonly string[];
  /** Set by a command's action: the exit code `run` returns. */
  exitCode: number;
}

type Action = (
  session: Session,
  options: SessionOptions & Record<string, unknown>,
  ...args: string[]
) => Promise<Outcome>;

/** Wraps a command's action: parse the target, connect, run, print (JSON or lines), close. */
function talk(
  context: TalkContext,
  action: Action,
  hooks?: (options: SessionOptions & Record<string, unknown>) => SessionHooks,
) {
  return async (...raw: unknown[]) => {
    const command = raw[raw.length - 1] as Command;
    const options = command.optsWithGlobals() as SessionOptions & Record<string, unknown>;
    const args = raw.slice(0, -2).filter((value): value is string => typeof value === 'string');
    const target = parseTarget(options.url, context.command);
    const session = await openSession(context.io, target, options, hooks?.(options));
    try {
      const outcome = await action(session, options, ...args);
      session.progress.stop();
      if (options.json) printJson(context.io, outcome.json);
      else printLines(context.io, outcome.lines);
      context.exitCode = outcome.exitCode ?? 0;
    } finally {
      await session.close().catch(() => {});
    }
  };
}

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Registers info, ping, tools, resources, prompts, complete, logs, listen and tasks on the program. */
export function registerTalkCommands(program: Command, context: TalkContext): void {
  const { io } = context;

  program
    .command('info')
    .description('Connect and print what was negotiated: era, version, server info, capabilities, instructions')
    .action(
      talk(context, async ({ client }) => {
        const capabilities = client.serverCapabilities ?? {};
        const info = {
          era: client.era,
          protocolVersion: client.protocolVersion,
          serverInfo: client.serverInfo,
          capabilities,
          instructions: client.instructions,
          extensions: Object.keys((capabilities as { extensions?: object }).extensions ?? {}),
        };
        const lines = [
          `server        ${client.serverInfo?.name ?? '?'} ${client.serverInfo?.version ?? ''}`.trimEnd(),
          `era           ${client.era} (protocol ${client.protocolVersion})`,
          `capabilities  ${
            Object.keys(capabilities)
              .filter((key) => key !== 'extensions')
              .join(', ') || 'none'
          }`,
          `extensions    ${info.extensions.join(', ') || 'none'}`,
        ];
        if (client.instructions) lines.push(`instructions  ${client.instructions}`);
        return { json: info, lines };
      }),
    );

  program
    .command('ping')
    .description('Check that the server answers (2026-07-28 has no ping: server/discover is sent instead)')
    .action(
      talk(context, async ({ client }) => {
        const started = performance.now();
        // Which revisions have `ping` is the protocol's method table, not ours: 2026-07-28 removed it, and there the
        // lightest request every server answers is `server/discover` (uncached, so it reaches the server).
        if (methodAvailability('ping', client.protocolVersion ?? '').available) await client.ping();
        else await client.discover({ cache: false });
        const ms = Math.round(performance.now() - started);
        return { json: { ok: true, ms }, lines: [`pong (${ms} ms)`] };
      }),
    );

  const tools = program.command('tools').description('List and call tools');
  tools
    .command('list')
    .description('List the tools (every page)')
    .action(
      talk(context, async ({ client }) => {
        const all = await client.listAllTools();
        return { json: { tools: all }, lines: table(all.map((tool) => [tool.name, tool.description])) };
      }),
    );
  tools
    .command('call')
    .description(
      'Call a tool. Arguments: --arg name=value (JSON values, @file), --args <json|@file>; in a terminal, missing required arguments are asked for',
    )
    .argument('<name>', 'the tool')
    .option(
      '-a, --arg <name=value>',
      'an argument (repeat it); the value is JSON when it parses, @path reads a file',
      collect,
      [],
    )
    .option('--args <json>', 'every argument as one JSON object (or @path)')
    .option('--task', 'run it as a task (the tasks extension / 2025-11-25 tasks) and follow it to its end')
    .action(
      talk(context, async (session, options, name) => {
        const { client, progress } = session;
        const tool = (await client.listAllTools()).find((entry) => entry.name === name);
        if (tool === undefined) throw new CliError('usage', `No tool named "${name}" (mcpkit tools list shows them).`);
        const args = await toolArguments(io, tool, options);
        const onProgress = (update: { progress: number; total?: number; message?: string }) => progress.update(update);
        let result: CallToolResult;
        let taskId: string | undefined;
        if (options.task) {
          const handle = await session.tasks.callToolAsTask({ name, arguments: args }, { onProgress });
          taskId = handle.last?.taskId;
          if (!options.json) note(io, `task ${handle.last?.taskId ?? ''} started`);
          handle.onStatus((status) => {
            if (!options.json)
              note(io, `task ${status.status}${status.statusMessage ? `: ${status.statusMessage}` : ''}`);
          });
          result = await handle.wait();
        } else {
          result = (await client.callTool({ name, arguments: args }, { onProgress })) as CallToolResult;
        }
        progress.stop();
        return {
          // With --task the document names the task, so scripts can ask for it again (tasks get|result).
          json: options.task ? { taskId, result } : result,
          lines: result.isError ? [] : describeToolResult(result),
          exitCode: result.isError ? reportToolError(io, result, options.json === true) : 0,
        };
      }),
    );

  const resources = program.command('resources').description('List, read and list templates of resources');
  resources
    .command('list')
    .description('List the resources (every page)')
    .action(
      talk(context, async ({ client }) => {
        const all = await client.listAllResources();
        return { json: { resources: all }, lines: table(all.map((entry) => [entry.uri, entry.title ?? entry.name])) };
      }),
    );
  resources
    .command('templates')
    .description('List the resource templates (every page)')
    .action(
      talk(context, async ({ client }) => {
        const all = await client.listAllResourceTemplates();
        return {
          json: { resourceTemplates: all },
          lines: table(all.map((entry) => [entry.uriTemplate, entry.title ?? entry.name])),
        };
      }),
    );
  resources
    .command('read')
    .description('Read a resource')
    .argument('<uri>', 'the resource URI')
    .action(
      talk(context, async ({ client }, _options, uri) => {
        const result = await client.readResource({ uri: uri! });
        const lines = result.contents.map((content) =>
          'text' in content && typeof content.text === 'string'
            ? content.text
            : `[${content.mimeType ?? 'binary'} ${content.uri}]`,
        );
        return { json: result, lines };
      }),
    );

  const prompts = program.command('prompts').description('List and get prompts');
  prompts
    .command('list')
    .description('List the prompts (every page)')
    .action(
      talk(context, async ({ client }) => {
        const all = await client.listAllPrompts();
        return { json: { prompts: all }, lines: table(all.map((entry) => [entry.name, entry.description])) };
      }),
    );
  prompts
    .command('get')
    .description('Get a prompt with its arguments (--arg name=value; asked for in a terminal when required)')
    .argument('<name>', 'the prompt')
    .option('-a, --arg <name=value>', 'an argument (repeat it)', collect, [])
    .action(
      talk(context, async ({ client }, options, name) => {
        const prompt = (await client.listAllPrompts()).find((entry) => entry.name === name);
        if (prompt === undefined)
          throw new CliError('usage', `No prompt named "${name}" (mcpkit prompts list shows them).`);
        const schema: ObjectSchema = {
          properties: Object.fromEntries(
            (prompt.arguments ?? []).map((arg) => [arg.name, { type: 'string', description: arg.description }]),
          ),
          required: (prompt.arguments ?? []).filter((arg) => arg.required).map((arg) => arg.name),
        };
        const args = await fillArguments(
          io,
          schema,
          parseArguments(options.arg as string[], undefined, schema),
          options,
          `prompt "${name}"`,
        );
        const result = await client.getPrompt({ name: name!, arguments: args as Record<string, string> });
        const lines = result.messages.map((message) => `${message.role}: ${describeContent(message.content as never)}`);
        return { json: result, lines };
      }),
    );

  program
    .command('complete')
    .description('Ask the server to complete an argument of a prompt or a resource template')
    .option('--prompt <name>', 'complete an argument of this prompt')
    .option('--template <uriTemplate>', 'complete a variable of this resource template instead')
    .argument('<argument>', 'the argument (or template variable) to complete')
    .argument('[value]', 'what is typed so far', '')
    .option('--context <name=value>', 'an argument already resolved (repeat it)', collect, [])
    .action(
      talk(context, async ({ client }, options, argument, value) => {
        if (!options.template === !options.prompt) {
          throw new CliError(
            'usage',
            'Name what to complete: --prompt <name> or --template <uriTemplate> (one of them).',
          );
        }
        const ref = options.template
          ? { type: 'ref/resource' as const, uri: String(options.template) }
          : { type: 'ref/prompt' as const, name: String(options.prompt) };
        const contextArguments = Object.fromEntries(
          (options.context as string[]).map((pair) => [pair.split('=')[0]!, pair.slice(pair.indexOf('=') + 1)]),
        );
        const result = await client.complete({
          ref,
          argument: { name: argument!, value: value ?? '' },
          ...(Object.keys(contextArguments).length ? { context: { arguments: contextArguments } } : {}),
        });
        return { json: result, lines: result.completion.values };
      }),
    );

  program
    .command('logs')
    .description('Set the server log level and print log messages as they arrive (Ctrl-C, or --for, to stop)')
    .option('--level <level>', `the least severe level to receive (${LOG_LEVELS.join(', ')})`, 'debug')
    .option('--for <seconds>', 'stop following after this many seconds')
    .action(async (...raw: unknown[]) => {
      const messages: unknown[] = [];
      await talk(
        context,
        async ({ client }, options) => {
          const level = String(options.level);
          if (!LOG_LEVELS.includes(level))
            throw new CliError('usage', `--level must be one of ${LOG_LEVELS.join(', ')}`);
          await client.setLoggingLevel(level as LoggingLevel);
          if (!options.json) note(io, `following the server's log at level ${level} (Ctrl-C to stop)`);
          await follow(options.for as string | undefined);
          return { json: { messages }, lines: [] };
        },
        (options) => ({
          onLogMessage: (params) => {
            messages.push(params);
            if (!options.json) printLog(io, params);
          },
        }),
      )(...raw);
    });

  program
    .command('listen')
    .description('Print list changes and resource updates as they arrive (Ctrl-C, or --for, to stop)')
    .option('--resource <uri>', 'also follow updates of this resource (repeat it)', collect, [])
    .option('--for <seconds>', 'stop listening after this many seconds')
    .action(
      talk(context, async ({ client }, options) => {
        const notifications: unknown[] = [];
        const subscription = await client.subscribe(
          {
            toolsListChanged: true,
            promptsListChanged: true,
            resourcesListChanged: true,
            ...((options.resource as string[]).length ? { resources: options.resource as string[] } : {}),
          },
          (notification) => {
            notifications.push(notification);
            if (!options.json) {
              const uri = (notification.params as { uri?: string } | undefined)?.uri;
              note(io, `${notification.method}${uri ? ` ${uri}` : ''}`);
            }
          },
        );
        if (!options.json)
          note(io, `listening (${Object.keys(subscription.honoured).join(', ') || 'nothing honoured'})`);
        await Promise.race([follow(options.for as string | undefined), subscription.ended]);
        await subscription.close().catch(() => {});
        return { json: { honoured: subscription.honoured, notifications }, lines: [] };
      }),
    );

  const tasks = program.command('tasks').description('List, inspect, wait for and cancel tasks');
  tasks
    .command('list')
    .description('List the tasks the server keeps for us')
    .action(
      talk(context, async ({ tasks: tasksClient }) => {
        const list = await tasksClient.list();
        return {
          json: list,
          lines: table(
            list.tasks.map((task) => [
              task.taskId,
              `${task.status}${task.statusMessage ? ` ${task.statusMessage}` : ''}`,
            ]),
          ),
        };
      }),
    );
  tasks
    .command('get')
    .description("Print a task's status")
    .argument('<taskId>')
    .action(
      talk(context, async ({ tasks: tasksClient }, _options, taskId) => {
        const info = await tasksClient.task(taskId!).status();
        return {
          json: info,
          lines: [`${info.taskId}  ${info.status}${info.statusMessage ? `  ${info.statusMessage}` : ''}`],
        };
      }),
    );
  tasks
    .command('result')
    .description("Wait for a task's result and print it")
    .argument('<taskId>')
    .action(
      talk(context, async ({ tasks: tasksClient }, options, taskId) => {
        const result = await tasksClient.task(taskId!).result();
        return {
          json: result,
          lines: result.isError ? [] : describeToolResult(result),
          exitCode: result.isError ? reportToolError(io, result, options.json === true) : 0,
        };
      }),
    );
  tasks
    .command('cancel')
    .description('Cancel a task')
    .argument('<taskId>')
    .action(
      talk(context, async ({ tasks: tasksClient }, _options, taskId) => {
        await tasksClient.task(taskId!).cancel();
        return { json: { taskId, cancelled: true }, lines: [`cancelled ${taskId}`] };
      }),
    );
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

async function toolArguments(
  io: CliIo,
  tool: Tool,
  options: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const schema = tool.inputSchema as ObjectSchema;
  const given = parseArguments(options.arg as string[], options.args as string | undefined, schema);
  return await fillArguments(io, schema, given, options, `tool "${tool.name}"`);
}

/** Asks for missing required arguments in a terminal; without one, a missing argument is a usage error. */
async function fillArguments(
  io: CliIo,
  schema: ObjectSchema,
  given: Record<string, unknown>,
  options: Record<string, unknown>,
  what: string,
): Promise<Record<string, unknown>> {
  const missing = missingRequired(schema, given);
  if (missing.length === 0) return given;
  if (!io.interactive || options.json) {
    throw new CliError(
      'usage',
      `Missing required argument${missing.length > 1 ? 's' : ''} of ${what}: ${missing.join(', ')} (add ${missing.map((name) => `--arg ${name}=…`).join(' ')})`,
    );
  }
  return await promptForProperties(io, schema, given);
}

function reportToolError(io: CliIo, result: CallToolResult, json: boolean): number {
  if (!json) note(io, `The tool reported an error:\n${describeToolResult(result).join('\n')}`);
  return 6;
}

/** Waits for --for seconds, or until SIGINT/SIGTERM. */
async function follow(seconds: string | undefined): Promise<void> {
  await new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      clearTimeout(timer);
      resolve();
    };
    const ms = seconds === undefined ? undefined : Number(seconds) * 1000;
    const timer = ms !== undefined && Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
