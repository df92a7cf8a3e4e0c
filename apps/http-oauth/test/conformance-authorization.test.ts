import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CURRENT_LINE, nodeBinary } from '@mcpkit/node-lines';
import {
  collectOutcomes,
  conformanceCli,
  formatRuns,
  judgeRuns,
  parseScenarioList,
  type RunOutcome,
  runConformanceCli,
} from '@mcpkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningApp, start } from '../src/start';
import { browse } from './browser';

// The official conformance suite's authorization-server scenarios (`conformance authorization`, newest suite): the
// metadata document and a whole authorization-code grant, against the demo authorization server and against the
// OAuth proxy of @mcpkit/middleware (MODE=proxy). The test registers a public client for the CLI's callback URL, then
// plays the user's browser: the CLI prints the authorization URL and waits on 127.0.0.1:<port>/callback; the test
// follows the URL (through the proxy's consent page and the upstream sign-in) and delivers the callback.

const app = fileURLToPath(new URL('..', import.meta.url));
const node22 = CURRENT_LINE >= 22 ? process.execPath : nodeBinary(22);
const next = conformanceCli('@modelcontextprotocol/conformance-next');
const RUN_TIMEOUT_MS = 60_000;
const running: RunningApp[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const started of running.splice(0)) await started.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A port nothing listens on right now, for the CLI's callback server. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Dynamic Client Registration of a public client whose redirect URI is the CLI's callback. */
async function registerClient(issuer: string, redirectUri: string): Promise<string> {
  const response = await fetch(`${issuer}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'conformance authorization suite',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

/**
 * Hands the authorization response to the CLI's callback server. The CLI prints the authorization URL before its
 * callback server listens, so under load the first connection can be refused: try again, 50 times at most, 100 ms apart.
 */
async function deliverToCallback(callbackUrl: string | URL): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const delivered = await fetch(callbackUrl, { signal: AbortSignal.timeout(5_000) });
      await delivered.body?.cancel();
      return;
    } catch (error) {
      const refused = (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
      if (!refused || attempt === 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Runs `conformance authorization` against `issuer` and answers the authorization URL it prints like a user at a
 * browser would; resolves with the CLI's output once it exits.
 */
function runAuthorizationSuite(args: string[], callback: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(node22, [next.script, 'authorization', ...args], {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let browsing: Promise<void> | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(output)?.[1];
      if (url === undefined || browsing !== undefined) return;
      browsing = browse({ authorizationUrl: new URL(url), redirectUri: callback } as never, [])
        // The CLI's callback server takes it from here (code, state, iss).
        .then(deliverToCallback)
        .catch((error: unknown) => {
          output += `\n[test browser] ${String(error)}`;
          child.kill('SIGKILL');
        });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(output);
    });
  });
}

describe.each(['direct', 'proxy'] as const)('conformance authorization: the %s authorization server', (mode) => {
  it(`passes every authorization-server scenario of ${next.version}`, { timeout: 90_000 }, async () => {
    const started = await start({ port: 0, authorizationServerPort: 0, mode, log: () => undefined });
    running.push(started);
    const listing = await runConformanceCli(node22, next, ['list', '--authorization'], {
      cwd: app,
      timeoutMs: 30_000,
    });
    const scenarios = parseScenarioList(listing.output, 'Authorization server scenarios');
    expect(scenarios.length, listing.output).toBeGreaterThan(0);

    const port = await freePort();
    const callback = `http://127.0.0.1:${port}/callback`;
    const clientId = await registerClient(started.issuer, callback);
    const outputDir = await mkdtemp(join(tmpdir(), `mcpkit-conformance-authorization-${mode}-`));
    dirs.push(outputDir);
    const output = await runAuthorizationSuite(
      [
        '--url',
        started.issuer,
        '--client-id',
        clientId,
        '--resource',
        started.url.href,
        '--port',
        String(port),
        '-o',
        outputDir,
      ],
      callback,
    );
    const outcomes: RunOutcome[] = (await collectOutcomes(outputDir, 'server')).map((outcome) => ({
      ...outcome,
      // Folders are `authorization-server-<scenario>-<timestamp>`.
      scenario: outcome.scenario.replace(/^authorization-server-/, ''),
      suite: next.label,
      wire: 'any',
    }));
    console.log(formatRuns(`conformance authorization (${mode})`, outcomes, {}));
    expect(outcomes.map((outcome) => outcome.scenario).sort(), output).toEqual([...scenarios].sort());
    const { unexpected } = judgeRuns(outcomes, {});
    expect(
      unexpected.map((o) => `${o.scenario}: ${o.problems.join('; ')}`),
      `failures:\n${output.slice(-4000)}`,
    ).toEqual([]);
  });
});
