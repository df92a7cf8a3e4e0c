// Reads a bench server's own CPU and memory (see servers/cpu-report.ts): SIGUSR2, then wait for the file it writes.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { ServerReport } from '../servers/cpu-report';

/** Asks the server `pid` for its report (bounded wait: 5 s). */
export async function readServerReport(pid: number, file: string): Promise<ServerReport> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const until = performance.now() + 5_000;
  while (!existsSync(file)) {
    if (performance.now() > until) throw new Error(`server ${pid} did not report its CPU in 5 s (${file})`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return JSON.parse(readFileSync(file, 'utf8')) as ServerReport;
}

/** The server's user + system CPU in µs. */
export async function serverCpuMicros(pid: number, file: string): Promise<number> {
  const report = await readServerReport(pid, file);
  return report.user + report.system;
}
