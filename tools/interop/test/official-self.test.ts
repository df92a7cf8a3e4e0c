import { describe, expect, it } from 'vitest';
import { createLimiter } from './limiter';
import { type FixtureRun, fixturePath, runFixtureClient, STEP_NAMES } from './run-fixture-client';

// The official fixtures against each other, before mcpkit is plugged in: every official client against every official
// server in each protocol version both of them speak. A green run here means a red run against mcpkit is mcpkit's.

// Each run is two or three node processes (client, server, v2's probe sibling in auto mode); more than three runs at a
// time starve a two-core CI box enough to turn timing into failures.
const limit = createLimiter(3);
// Bounds of one run: requests and notification waits, the handshake (spawns the server), and the kill switch.
const CLIENT_ARGS = ['--timeout', '8000', '--connect-timeout', '15000'];
const RUN_TIMEOUT_MS = 45_000;
const TEST_TIMEOUT_MS = 120_000;

const run = (client: string, clientArgs: readonly string[], server: readonly string[]) =>
  limit(() => runFixtureClient(client, [...CLIENT_ARGS, ...clientArgs], server, RUN_TIMEOUT_MS));

const V1_SERVER = ['node', fixturePath('official-v1-server.mjs')];
const V2_SERVER = ['node', fixturePath('official-v2-server.mjs')];

interface Pairing {
  client: 'official-v1-client.mjs' | 'official-v2-client.mjs';
  clientArgs: string[];
  server: string[];
  serverName: 'official-v1-server' | 'official-v2-server';
  protocolVersion: string;
  era: 'legacy' | 'modern';
}

/** Steps a run must skip: ping does not exist on 2026-07-28, elicitation not before 2025-06-18. */
function expectedSkips(protocolVersion: string): string[] {
  return [
    ...(protocolVersion >= '2026-07-28' ? ['ping'] : []),
    ...(protocolVersion < '2025-06-18' ? ['elicitation (ask-name)'] : []),
  ];
}

function expectAllStepsOk(run: FixtureRun, pairing: Pairing): void {
  const { report } = run;
  const failed = report.steps.filter((step) => !step.ok);
  expect(failed, `failed steps\nstderr:\n${run.stderr}`).toEqual([]);
  expect(run.exitCode).toBe(0);
  expect(report.protocolVersion).toBe(pairing.protocolVersion);
  expect(report.era).toBe(pairing.era);
  expect(report.server?.name).toBe(pairing.serverName);
  expect(report.steps.map((step) => step.name)).toEqual(STEP_NAMES);
  expect(report.steps.filter((step) => step.skipped).map((step) => step.name)).toEqual(
    expectedSkips(pairing.protocolVersion),
  );
}

const v1Client = (clientArgs: string[]) => ({ client: 'official-v1-client.mjs' as const, clientArgs });
const v2Client = (clientArgs: string[]) => ({ client: 'official-v2-client.mjs' as const, clientArgs });
const v1Server = { server: V1_SERVER, serverName: 'official-v1-server' as const };
const v2Server = (args: string[] = []) => ({
  server: [...V2_SERVER, ...args],
  serverName: 'official-v2-server' as const,
});
const legacy = (protocolVersion: string) => ({ protocolVersion, era: 'legacy' as const });
const modern = { protocolVersion: '2026-07-28', era: 'modern' as const };

const pairings: Record<string, Pairing> = {
  // v1 ↔ v1: the 2025 era only. Pins below the SDK's hard-coded offer go through the client's transport shim.
  'v1 client → v1 server, SDK default (2025-11-25)': { ...v1Client([]), ...v1Server, ...legacy('2025-11-25') },
  'v1 client → v1 server, 2025-06-18': {
    ...v1Client(['--version', '2025-06-18']),
    ...v1Server,
    ...legacy('2025-06-18'),
  },
  'v1 client → v1 server, 2025-03-26': {
    ...v1Client(['--version', '2025-03-26']),
    ...v1Server,
    ...legacy('2025-03-26'),
  },
  'v1 client → v1 server, 2024-11-05': {
    ...v1Client(['--version', '2024-11-05']),
    ...v1Server,
    ...legacy('2024-11-05'),
  },

  // v2 ↔ v2: both eras through serveStdio; the client's default stays on the legacy handshake.
  'v2 client → v2 server, SDK default (legacy 2025-11-25)': { ...v2Client([]), ...v2Server(), ...legacy('2025-11-25') },
  'v2 client → v2 server, auto negotiation (2026-07-28)': {
    ...v2Client(['--version', 'auto']),
    ...v2Server(),
    ...modern,
  },
  'v2 client → v2 server, pinned 2026-07-28': { ...v2Client(['--version', '2026-07-28']), ...v2Server(), ...modern },
  'v2 client → modern-only v2 server (legacy: reject), pinned 2026-07-28': {
    ...v2Client(['--version', '2026-07-28']),
    ...v2Server(['--legacy', 'reject']),
    ...modern,
  },
  'v2 client → v2 server, 2025-06-18': {
    ...v2Client(['--version', '2025-06-18']),
    ...v2Server(),
    ...legacy('2025-06-18'),
  },
  'v2 client → v2 server, 2025-03-26': {
    ...v2Client(['--version', '2025-03-26']),
    ...v2Server(),
    ...legacy('2025-03-26'),
  },
  'v2 client → v2 server, 2024-11-05': {
    ...v2Client(['--version', '2024-11-05']),
    ...v2Server(),
    ...legacy('2024-11-05'),
  },
  'v2 client → v2 server limited to 2025-06-18 (counter-offer)': {
    ...v2Client([]),
    ...v2Server(['--versions', '2025-06-18']),
    ...legacy('2025-06-18'),
  },

  // Cross: v1 and v2 overlap on the 2025 era only.
  'v1 client → v2 server, SDK default (2025-11-25)': { ...v1Client([]), ...v2Server(), ...legacy('2025-11-25') },
  'v1 client → v2 server, 2024-11-05': {
    ...v1Client(['--version', '2024-11-05']),
    ...v2Server(),
    ...legacy('2024-11-05'),
  },
  'v1 client → v2 server limited to 2025-06-18 (counter-offer)': {
    ...v1Client([]),
    ...v2Server(['--versions', '2025-06-18']),
    ...legacy('2025-06-18'),
  },
  'v2 client → v1 server, SDK default (2025-11-25)': { ...v2Client([]), ...v1Server, ...legacy('2025-11-25') },
  'v2 client → v1 server, auto negotiation falls back to legacy': {
    ...v2Client(['--version', 'auto']),
    ...v1Server,
    ...legacy('2025-11-25'),
  },
  'v2 client → v1 server, 2025-03-26': {
    ...v2Client(['--version', '2025-03-26']),
    ...v1Server,
    ...legacy('2025-03-26'),
  },
};

describe.concurrent('official clients against official servers over stdio', () => {
  for (const [title, pairing] of Object.entries(pairings)) {
    it(title, { timeout: TEST_TIMEOUT_MS }, async () => {
      expectAllStepsOk(await run(pairing.client, pairing.clientArgs, pairing.server), pairing);
    });
  }
});

describe.concurrent('pairings without a common protocol version fail at connect', () => {
  it('v2 client pinned to 2026-07-28 → v1 server', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { exitCode, report } = await run('official-v2-client.mjs', ['--version', '2026-07-28'], V1_SERVER);
    expect(exitCode).toBe(1);
    expect(report.protocolVersion).toBeNull();
    expect(report.steps).toHaveLength(1);
    expect(report.steps[0]).toMatchObject({ name: 'connect', ok: false });
    expect(report.steps[0]?.detail).toContain('did not offer pinned protocol version 2026-07-28');
  });

  it('v1 client → modern-only v2 server (legacy: reject)', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { exitCode, report } = await run('official-v1-client.mjs', [], [...V2_SERVER, '--legacy', 'reject']);
    expect(exitCode).toBe(1);
    expect(report.protocolVersion).toBeNull();
    expect(report.steps).toHaveLength(1);
    expect(report.steps[0]).toMatchObject({ name: 'connect', ok: false });
    expect(report.steps[0]?.detail).toContain('-32022');
  });
});
