// @mcpkit/cli: the `mcpkit` command as a function, for tests and embedding. The bin is `mcpkit` (src/bin.ts).

export { CliError, classifyError, ExitCode, type ExitCodeName } from './exit-codes';
export type { CliIo } from './io';
export { run } from './main';
