import { Command, CommanderError } from 'commander';
import { registerAuth } from './commands/auth';
import { registerConnect } from './commands/connect';
import { registerInit } from './commands/init';
import { registerServe } from './commands/serve';
import { registerTalkCommands, type TalkContext } from './commands/talk';
import { classifyError, ExitCode } from './exit-codes';
import { type CliIo, note, processIo } from './io';
import { printJson } from './output';

const VERSION = '0.0.0';

/**
 * Runs `mcpkit` with `argv` (the words after the program name) and resolves to the exit code. Nothing here calls
 * `process.exit`: the bin does, so tests run commands in process.
 *
 * @example
 * import { run } from '@mcpkit/cli';
 * const code = await run(['tools', 'list', '--json', '--', 'node', 'server.mjs']);
 */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  // Everything after the first `--` is a stdio server's command line, kept away from option parsing.
  const dashes = argv.indexOf('--');
  const own = dashes === -1 ? [...argv] : argv.slice(0, dashes);
  const command = dashes === -1 ? [] : argv.slice(dashes + 1);
  const context: TalkContext = { io, command, exitCode: 0 };
  const program = buildProgram(context);
  const json = own.includes('--json');
  try {
    await program.parseAsync(own, { from: 'user' });
    return context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return ExitCode.ok;
      }
      // Commander already printed its message on stderr.
      if (json) printJson(io, { error: { kind: 'usage', message: error.message.replace(/^error: /, '') } });
      return ExitCode.usage;
    }
    const classified = classifyError(error);
    if (json) {
      printJson(io, {
        error: {
          kind: classified.kind,
          message: classified.message,
          ...(classified.data ? { data: classified.data } : {}),
        },
      });
    }
    note(io, `mcpkit: ${classified.message}`);
    if (classified.kind === 'failure' && io.env.MCPKIT_DEBUG && error instanceof Error && error.stack)
      note(io, error.stack);
    return classified.exitCode;
  }
}

function buildProgram(context: TalkContext): Command {
  const { io } = context;
  const program = new Command('mcpkit')
    .description('Talk to any MCP server (stdio, Streamable HTTP, WebSocket; both protocol eras) and bridge them.')
    .version(VERSION)
    .option(
      '-u, --url <url>',
      'the server: http(s):// (Streamable HTTP, falls back to HTTP+SSE) or ws(s)://; or a command after --',
    )
    .option('--protocol-version <version>', 'pin the protocol version (default: the era is detected)')
    .option(
      '-H, --header <name: value>',
      'an HTTP/WebSocket header to send (repeat it)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--root <path>',
      'a root the server may use (repeat it)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--timeout <seconds>', 'idle timeout of each request (progress restarts it)')
    .option(
      '--inherit-env',
      "pass this shell's whole environment to a stdio server (default: PATH, HOME and a few more)",
    )
    .option('--no-oauth', 'never sign in with OAuth when an HTTP server answers 401')
    .option('--callback-port <port>', 'port of the loopback OAuth redirect (http://127.0.0.1:<port>/callback)', '8976')
    .option('--json', 'print one JSON document on stdout; diagnostics stay on stderr')
    .addHelpText(
      'after',
      `
Examples:
  mcpkit tools list -- node server.mjs
  mcpkit tools call forecast --arg city=Paris --url http://127.0.0.1:3000/mcp
  mcpkit info --json --url ws://127.0.0.1:3000/mcp

Exit codes: 0 ok, 1 unexpected failure, 2 usage error, 3 connection failure, 4 authorization failure,
5 protocol error (the server answered with an error), 6 tool error (isError).`,
    )
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .configureHelp({ showGlobalOptions: true });
  registerTalkCommands(program, context);
  registerServe(program, context);
  registerConnect(program, context);
  registerAuth(program, context);
  registerInit(program, context);
  // Every subcommand reports through the same overrides.
  const applyOverrides = (command: Command) => {
    for (const sub of command.commands) {
      sub
        .exitOverride()
        .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
      sub.configureHelp({ showGlobalOptions: true });
      applyOverrides(sub);
    }
  };
  applyOverrides(program);
  return program;
}
