// How the bench reads a server's own CPU time with microsecond resolution (/proc ticks are 10 ms), and its memory: on
// SIGUSR2 the server writes `process.cpuUsage()` and `process.memoryUsage()` to the file named by `--cpu-file <path>`.
// With `--gc` (and node's `--expose-gc`) it first collects garbage, so heap figures are live objects only. The write is
// tmp + rename, so the bench never reads a half-written file. Every bench server installs this, so all sides pay the
// same (nothing per call).
import { renameSync, writeFileSync } from 'node:fs';

/** What the reporter writes. */
export interface ServerReport {
  user: number;
  system: number;
  heapUsed: number;
  rss: number;
}

/** Installs the SIGUSR2 → cpu-file reporter when `--cpu-file <path>` is on the command line. */
export function installCpuReport(argv: readonly string[] = process.argv): void {
  const index = argv.indexOf('--cpu-file');
  const file = index === -1 ? undefined : argv[index + 1];
  if (file === undefined) return;
  const collect = argv.includes('--gc') ? (globalThis as { gc?: () => void }).gc : undefined;
  process.on('SIGUSR2', () => {
    const usage = process.cpuUsage();
    if (collect !== undefined) {
      // Twice: the first pass can leave objects that only the second finds unreachable (weak refs, finalizers).
      collect();
      collect();
    }
    const memory = process.memoryUsage();
    const report: ServerReport = {
      user: usage.user,
      system: usage.system,
      heapUsed: memory.heapUsed,
      rss: memory.rss,
    };
    writeFileSync(`${file}.part`, JSON.stringify(report));
    renameSync(`${file}.part`, file);
  });
}
