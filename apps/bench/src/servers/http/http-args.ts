// Command line of the HTTP and WebSocket bench servers: `--mode <mode>` (plus the reporter's `--cpu-file` / `--gc`),
// and how a server tells the bench where it listens: one JSON line `{"url": …}` on stdout once it accepts requests.
import type { HttpMode } from '../../drivers/concurrent';

const MODES: readonly HttpMode[] = ['stateful-json', 'stateful-sse', 'stateless', 'modern'];

/** The `--mode` argument (default `stateful-json`). */
export function httpMode(argv: readonly string[] = process.argv): HttpMode {
  const index = argv.indexOf('--mode');
  const mode = index === -1 ? 'stateful-json' : argv[index + 1];
  if (!MODES.includes(mode as HttpMode)) throw new Error(`--mode ${mode}: expected one of ${MODES.join(', ')}`);
  return mode as HttpMode;
}

/** Tells the bench the server is up. */
export function announce(url: string | URL): void {
  process.stdout.write(`${JSON.stringify({ url: String(url) })}\n`);
}
