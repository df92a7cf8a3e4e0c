// The sample never ships a fixed requestState secret (issue 25): a shared instance refuses to start without
// MCP_STATE_SECRET, and a single --local instance generates one and says so on stderr.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('../src/server.ts', import.meta.url));

function runServer(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@mcpkit/source', SERVER, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      // Started: stop it, the test only needs to know that it did and what it said.
      if (stdout.includes('listening ')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const withoutSecret = () => {
  const env = { ...process.env };
  delete env.MCP_STATE_SECRET;
  return env;
};

it('refuses to start a shared instance without MCP_STATE_SECRET, before touching Redis', async () => {
  const { code, stdout, stderr } = await runServer(['--id', 'a'], {
    ...withoutSecret(),
    REDIS_URL: 'redis://127.0.0.1:1',
  });
  expect(code).toBe(2);
  expect(stdout).not.toContain('listening');
  expect(stderr).toMatch(/MCP_STATE_SECRET is not set.*refusing to start/s);
}, 30_000);

it('generates a secret for a single --local instance and says so on stderr', async () => {
  const { stdout, stderr } = await runServer(['--id', 'a', '--local'], withoutSecret());
  expect(stdout).toContain('listening http://127.0.0.1:');
  expect(stderr).toContain('generated a random requestState secret');
}, 30_000);
