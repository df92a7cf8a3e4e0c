// How the bench reads a server's own CPU time with microsecond resolution (/proc ticks are 10 ms): on SIGUSR2 the
// server writes `process.cpuUsage()` to the file named by `--cpu-file <path>`. The write is tmp + rename, so the bench
// never reads a half-written file. Every bench server installs this, so all sides pay the same (nothing per call).
import { renameSync, writeFileSync } from 'node:fs';

/** Installs the SIGUSR2 → cpu-file reporter when `--cpu-file <path>` is on the command line. */
export function installCpuReport(argv: readonly string[] = process.argv): void {
  const index = argv.indexOf('--cpu-file');
  const file = index === -1 ? undefined : argv[index + 1];
  if (file === undefined) return;
  process.on('SIGUSR2', () => {
    const usage = process.cpuUsage();
    writeFileSync(`${file}.part`, JSON.stringify({ user: usage.user, system: usage.system }));
    renameSync(`${file}.part`, file);
  });
}
