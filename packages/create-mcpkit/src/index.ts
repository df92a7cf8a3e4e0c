// create-mcpkit: what `npm create mcpkit [template] [folder]` runs — `mcpkit init` of @mcpkit/cli.
import { run } from '@mcpkit/cli';

/**
 * Runs `mcpkit init` with the words `npm create mcpkit` passed on, and resolves to the exit code.
 *
 * @example
 * // npm create mcpkit http-express my-server -- --from ../mcpkit/packs
 * process.exitCode = await createProject(process.argv.slice(2));
 */
export async function createProject(argv: readonly string[]): Promise<number> {
  return await run(['init', ...argv]);
}
