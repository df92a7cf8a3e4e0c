// The command line both hop processes take (the gateway and the floor proxy): the upstream is an HTTP URL or a stdio
// server file, exactly one of them.

/** `--upstream <url>` or `--upstream-command <file>` from `process.argv`; throws naming `who` unless exactly one. */
export function upstreamArguments(
  who: string,
): { url: string; command?: undefined } | { url?: undefined; command: string } {
  const argument = (name: string) => {
    const index = process.argv.indexOf(name);
    return index === -1 ? undefined : process.argv[index + 1];
  };
  const url = argument('--upstream');
  const command = argument('--upstream-command');
  if (url !== undefined && command === undefined) return { url };
  if (command !== undefined && url === undefined) return { command };
  throw new Error(`${who}: pass --upstream <url> or --upstream-command <file>`);
}
