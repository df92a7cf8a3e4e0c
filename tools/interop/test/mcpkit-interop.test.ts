import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLimiter } from './limiter';
import { type FixtureRun, fixtureCommand, runFixtureClient, STEP_NAMES } from './run-fixture-client';
import { checkTapLog, formatViolations, openings, progressBeforeSlowResult, type WireCheck } from './wire-check';

// Issue 3, the interop proof: mcpkit's client and server against the official TypeScript SDKs over stdio (v1 =
// @modelcontextprotocol/sdk 1.x, v2 = @modelcontextprotocol/client and /server 2.x), both directions, in every
// revision each peer speaks, plus mcpkit against itself. Every pairing runs the shared steps (fixtures/client-steps.mjs) and every line
// on the pipe goes through fixtures/wire-tap.mjs and is checked against the official schema of its revision.

// Each run is three to four node processes (client, tap, server, v2's probe sibling in auto mode), one of them under
// tsx; the official self-test runs in its own worker before or after this file (one worker on two cores).
const limit = createLimiter(3);
// Bounds of one run: requests and notification waits (--timeout), the handshake (--connect-timeout, includes spawning
// the server), and the kill switch (beyond the client's own watchdog, connect + 3 × timeout).
const TIMEOUT_MS = 8000;
const CONNECT_TIMEOUT_MS = 15_000;
const RUN_TIMEOUT_MS = 75_000;
const TEST_TIMEOUT_MS = 120_000;

const MCPKIT_SERVER = fixtureCommand('mcpkit-server.ts');
const V1_SERVER = fixtureCommand('official-v1-server.mjs');
const V2_SERVER = fixtureCommand('official-v2-server.mjs');
const MCPKIT_CLIENT = 'mcpkit-client.ts';
const V1_CLIENT = 'official-v1-client.mjs';
const V2_CLIENT = 'official-v2-client.mjs';

// One tap log per run; INTEROP_KEEP_TAPS=1 keeps them (the folder is printed) to read a pairing's wire afterwards.
const tapDir = mkdtempSync(join(tmpdir(), 'mcpkit-interop-'));
afterAll(() => {
  if (process.env.INTEROP_KEEP_TAPS) console.info(`wire-tap logs kept in ${tapDir}`);
  else rmSync(tapDir, { recursive: true, force: true });
});
let taps = 0;

/** Runs `client` against `server` with the wire tap in between; returns the run and the checked wire. */
function run(
  client: string,
  clientArgs: readonly string[],
  server: readonly string[],
  timeoutMs = TIMEOUT_MS,
): Promise<FixtureRun & { wire: WireCheck }> {
  const bounds = ['--timeout', String(timeoutMs), '--connect-timeout', String(CONNECT_TIMEOUT_MS)];
  const tapLog = join(tapDir, `tap-${++taps}.log`);
  const tapped = [...fixtureCommand('wire-tap.mjs'), '--out', tapLog, '--', ...server];
  return limit(async () => {
    const result = await runFixtureClient(client, [...bounds, ...clientArgs], tapped, RUN_TIMEOUT_MS);
    return { ...result, wire: await checkTapLog(tapLog) };
  });
}

/**
 * Steps a run must skip, and why (the steps decide from the negotiated revision; this pins the decision):
 * `ping` was removed in 2026-07-28; elicitation first appeared in 2025-06-18 (the fixture clients do not declare it
 * below, so no server is asked to elicit from a client that cannot answer).
 */
function expectedSkips(protocolVersion: string): string[] {
  return [
    ...(protocolVersion >= '2026-07-28' ? ['ping'] : []),
    ...(protocolVersion < '2025-06-18' ? ['elicitation (ask-name)'] : []),
  ];
}

/** mcpkit's client gives up on the probe (300 ms) before mcpkit's server, slow to start (1 500 ms), answers it. */
const SLOW_START_PAIRING = 'mcpkit client, probe timeout 300 ms → mcpkit server slow to start (1 500 ms), auto';

/**
 * Steps that fail because of a bug in an mcpkit package, diagnosed in README.md ("Expected failures"). The package is
 * not patched here: the lead fixes it and removes the entry. A listed step that passes fails its test, so the list
 * cannot go stale.
 */
const EXPECTED_FAILURES: ReadonlyArray<{ pairing: string; step: string; detail: string; diagnosis: string }> = [];

/**
 * Invalid messages an official SDK puts on the wire (not mcpkit's to fix), by pairing, sender and message. Empty: every
 * message of every pairing below matches the official schema of its revision.
 */
const EXPECTED_WIRE_VIOLATIONS: ReadonlyArray<{ pairing: string; sender: 'client' | 'server'; what: string }> = [];

type Era = 'legacy' | 'modern';

interface Pairing {
  client: string;
  clientArgs: string[];
  /** --timeout of the client, when the default is not enough (see `v2ModernSession`). */
  timeoutMs?: number;
  server: string[];
  serverName: string;
  protocolVersion: string;
  era: Era;
}

// The auto probe's timeout starts when the client spawns the server, so it includes the server's cold start (a tsx
// start under a loaded two-core box can pass the client's 5 s default): the matrix gives it the connect timeout. What
// happens when the probe does time out is the slow-start test below.
const mcpkitClient = (version?: string) => ({
  client: MCPKIT_CLIENT,
  clientArgs: [...(version ? ['--version', version] : []), '--probe-timeout', '15000'],
});
const v1Client = (version?: string) => ({ client: V1_CLIENT, clientArgs: version ? ['--version', version] : [] });
const v2Client = (version?: string) => ({ client: V2_CLIENT, clientArgs: version ? ['--version', version] : [] });
// v2's auto/pin mode opens the session process *after* the probe, with an ordinary request (`tools/list`) bounded by
// the request timeout, not the connect timeout: that first request waits for the server's cold start (tsx; seconds
// on a loaded box). It gets the connect timeout's budget.
const v2ModernSession = (version: string) => ({ ...v2Client(version), timeoutMs: CONNECT_TIMEOUT_MS });
const mcpkitServer = (...args: string[]) => ({ server: [...MCPKIT_SERVER, ...args], serverName: 'mcpkit-server' });
const v1Server = { server: V1_SERVER, serverName: 'official-v1-server' };
const v2Server = (...args: string[]) => ({ server: [...V2_SERVER, ...args], serverName: 'official-v2-server' });
const legacy = (protocolVersion: string) => ({ protocolVersion, era: 'legacy' as const });
const modern = { protocolVersion: '2026-07-28', era: 'modern' as const };

const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

const pairings: Record<string, Pairing> = {
  // mcpkit client → official v1 server: the 2025 era only (v1 answers `server/discover` with -32601).
  'mcpkit client → v1 server, auto (falls back to legacy 2025-11-25)': {
    ...mcpkitClient('auto'),
    ...v1Server,
    ...legacy('2025-11-25'),
  },
  ...Object.fromEntries(
    LEGACY_REVISIONS.map((version) => [
      `mcpkit client → v1 server, ${version}`,
      { ...mcpkitClient(version), ...v1Server, ...legacy(version) },
    ]),
  ),

  // mcpkit client → official v2 server: both eras.
  'mcpkit client → v2 server, auto (2026-07-28)': { ...mcpkitClient('auto'), ...v2Server(), ...modern },
  'mcpkit client → v2 server, pinned 2026-07-28': { ...mcpkitClient('2026-07-28'), ...v2Server(), ...modern },
  'mcpkit client → modern-only v2 server (legacy: reject), auto': {
    ...mcpkitClient('auto'),
    ...v2Server('--legacy', 'reject'),
    ...modern,
  },
  ...Object.fromEntries(
    LEGACY_REVISIONS.map((version) => [
      `mcpkit client → v2 server, ${version}`,
      { ...mcpkitClient(version), ...v2Server(), ...legacy(version) },
    ]),
  ),

  // Official v1 client → mcpkit server: the 2025 era (pins below 2025-11-25 through the fixture's shim).
  'v1 client → mcpkit server, SDK default (2025-11-25)': { ...v1Client(), ...mcpkitServer(), ...legacy('2025-11-25') },
  ...Object.fromEntries(
    LEGACY_REVISIONS.slice(1).map((version) => [
      `v1 client → mcpkit server, ${version}`,
      { ...v1Client(version), ...mcpkitServer(), ...legacy(version) },
    ]),
  ),

  // Official v2 client → mcpkit server: 2026-07-28 (auto: probe on a sibling process, then a session opened by an
  // enveloped request; pin: the same without the fallback) and the legacy revisions.
  'v2 client → mcpkit server, auto (2026-07-28)': { ...v2ModernSession('auto'), ...mcpkitServer(), ...modern },
  'v2 client → mcpkit server, pinned 2026-07-28': { ...v2ModernSession('2026-07-28'), ...mcpkitServer(), ...modern },
  'v2 client → modern-only mcpkit server, pinned 2026-07-28': {
    ...v2ModernSession('2026-07-28'),
    ...mcpkitServer('--versions', '2026-07-28'),
    ...modern,
  },
  'v2 client → mcpkit server, SDK default (legacy 2025-11-25)': {
    ...v2Client(),
    ...mcpkitServer(),
    ...legacy('2025-11-25'),
  },
  ...Object.fromEntries(
    LEGACY_REVISIONS.slice(1).map((version) => [
      `v2 client → mcpkit server, ${version}`,
      { ...v2Client(version), ...mcpkitServer(), ...legacy(version) },
    ]),
  ),
  'v2 client → mcpkit server limited to 2025-06-18 (counter-offer)': {
    ...v2Client(),
    ...mcpkitServer('--versions', '2025-06-18'),
    ...legacy('2025-06-18'),
  },

  // mcpkit ↔ mcpkit, every revision.
  'mcpkit client → mcpkit server, auto (2026-07-28)': { ...mcpkitClient('auto'), ...mcpkitServer(), ...modern },
  ...Object.fromEntries(
    LEGACY_REVISIONS.map((version) => [
      `mcpkit client → mcpkit server, ${version}`,
      { ...mcpkitClient(version), ...mcpkitServer(), ...legacy(version) },
    ]),
  ),
};

function expectPairing(title: string, result: FixtureRun & { wire: WireCheck }, pairing: Pairing): void {
  const { report, stderr, wire } = result;
  const context = `\nreport: ${JSON.stringify(report.steps, null, 1)}\nstderr:\n${stderr.slice(-4000)}`;

  // Wire: every message either side sent matches the official schema of its revision.
  const allowed = EXPECTED_WIRE_VIOLATIONS.filter((entry) => entry.pairing === title);
  const unexpected = wire.violations.filter(
    (violation) => !allowed.some((entry) => entry.sender === violation.sender && entry.what === violation.what),
  );
  expect(unexpected, `invalid messages on the wire:\n${formatViolations(unexpected)}`).toEqual([]);
  for (const entry of allowed) {
    const seen = wire.violations.some(
      (violation) => violation.sender === entry.sender && violation.what === entry.what,
    );
    expect(seen, `EXPECTED_WIRE_VIOLATIONS entry no longer seen, remove it: ${JSON.stringify(entry)}`).toBe(true);
  }

  // Steps: every step ok, except the listed expected failures, which must still fail the way they were diagnosed.
  const expectedFailures = EXPECTED_FAILURES.filter((entry) => entry.pairing === title);
  const failed = report.steps.filter((step) => !step.ok);
  const nowPassing = expectedFailures.filter((entry) => !failed.some((step) => step.name === entry.step));
  expect(nowPassing, `listed in EXPECTED_FAILURES but passing now: remove the entries${context}`).toEqual([]);
  expect(
    failed.map((step) => step.name),
    `failed steps${context}`,
  ).toEqual(expectedFailures.map((entry) => entry.step));
  for (const entry of expectedFailures) {
    expect(failed.find((step) => step.name === entry.step)?.detail, `${entry.step} fails differently now`).toContain(
      entry.detail,
    );
  }
  expect(result.exitCode).toBe(expectedFailures.length === 0 ? 0 : 1);
  if (failed.some((step) => step.name === 'connect')) return;
  expect(report.protocolVersion).toBe(pairing.protocolVersion);
  expect(report.era).toBe(pairing.era);
  expect(report.server?.name).toBe(pairing.serverName);
  expect(report.steps.map((step) => step.name)).toEqual(STEP_NAMES);
  expect(report.steps.filter((step) => step.skipped).map((step) => step.name)).toEqual(
    expectedSkips(pairing.protocolVersion),
  );
  expect(wire.messages, 'messages on the wire').toBeGreaterThan(40);

  // How the connections opened. v2's auto/pin mode probes `server/discover` on a sibling process (a second connection)
  // and opens the session with an enveloped request; mcpkit's client probes on the one connection it keeps.
  const opened = openings(wire.connections);
  if (pairing.client === V2_CLIENT && pairing.era === 'modern') {
    expect(opened).toEqual([
      { method: 'server/discover', enveloped: true },
      { method: expect.not.stringMatching(/^server\/discover$|^initialize$/), enveloped: true },
    ]);
  } else if (pairing.era === 'modern') {
    expect(opened).toEqual([{ method: 'server/discover', enveloped: true }]);
  } else {
    // Legacy: one connection opened by `initialize`, or by mcpkit's auto probe that the fallback `initialize` follows.
    const probed = pairing.client === MCPKIT_CLIENT && pairing.clientArgs.includes('auto');
    const [session] = [...wire.connections.values()];
    const sent = (session ?? []).filter((line) => line.sender === 'client').slice(0, probed ? 2 : 1);
    expect(opened).toHaveLength(1);
    expect(sent.map((line) => (JSON.parse(line.line) as { method?: string }).method)).toEqual(
      probed ? ['server/discover', 'initialize'] : ['initialize'],
    );
  }

  // Progress: the official clients may drop the last notification (typescript-sdk#2580, a client-side race the step
  // tolerates); mcpkit's client must see all three, and mcpkit's server must put all three on the wire first.
  const progress = report.steps.find((step) => step.name === 'tools/call slow (progress)');
  if (pairing.client === MCPKIT_CLIENT) expect(progress?.detail).toBe('3 progress events');
  if (pairing.serverName === 'mcpkit-server') expect(progressBeforeSlowResult(wire.connections)).toBe(3);
}

describe.concurrent('mcpkit ↔ official SDKs over stdio, every step, every message schema-checked', () => {
  for (const [title, pairing] of Object.entries(pairings)) {
    it(title, { timeout: TEST_TIMEOUT_MS }, async () => {
      expectPairing(title, await run(pairing.client, pairing.clientArgs, pairing.server, pairing.timeoutMs), pairing);
    });
  }
});

describe.concurrent('the stdio probe timing out (spec 2026-07-28 §2: timeout ⇒ legacy ⇒ initialize)', () => {
  // The server reads its first message 1.5 s after it started, five times the probe timeout. The probe timeout counts
  // from the server's first message, so the probe waits for the start and the pairing stays modern, every step passing.
  it(SLOW_START_PAIRING, { timeout: TEST_TIMEOUT_MS }, async () => {
    const result = await run(
      MCPKIT_CLIENT,
      ['--version', 'auto', '--probe-timeout', '300'],
      [...MCPKIT_SERVER, '--startup-delay', '1500'],
    );
    expect(result.report.era).toBe('modern');
    expectPairing(SLOW_START_PAIRING, result, { ...mcpkitClient('auto'), ...mcpkitServer(), ...modern });
  });
});

describe.concurrent('pairings without a common protocol version fail at connect, cleanly', () => {
  it('v1 client → modern-only mcpkit server', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { exitCode, report, wire } = await run(V1_CLIENT, [], [...MCPKIT_SERVER, '--versions', '2026-07-28']);
    expect(exitCode).toBe(1);
    expect(report.steps).toEqual([expect.objectContaining({ name: 'connect', ok: false })]);
    expect(report.steps[0]?.detail).toContain('-32022');
    expect(wire.violations, formatViolations(wire.violations)).toEqual([]);
  });

  it('mcpkit client pinned to 2026-07-28 → v1 server', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { exitCode, report, wire } = await run(MCPKIT_CLIENT, ['--version', '2026-07-28'], V1_SERVER);
    expect(exitCode).toBe(1);
    expect(report.steps).toEqual([expect.objectContaining({ name: 'connect', ok: false })]);
    // Pinned: no fallback; the v1 server's answer to `server/discover` surfaces as it is.
    expect(report.steps[0]?.detail).toContain('Method not found');
    expect(wire.violations, formatViolations(wire.violations)).toEqual([]);
  });
});
