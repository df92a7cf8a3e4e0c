import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Gateway } from '@mcpkit/gateway';
import { upstream } from '@mcpkit/gateway/node';
import { CURRENT_LINE, nodeBinary } from '@mcpkit/node-lines';
import { McpServer } from '@mcpkit/server';
import { conformanceCli, expectClean, readExpectedFailures, runConformance, runConformanceCli } from '@mcpkit/testkit';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createEverythingServer } from '../../everything-server/src/everything-server';

// The official conformance suite's server scenarios, run against apps/everything-server THROUGH a gateway that mounts
// it with an empty namespace (names and URIs pass through), over Streamable HTTP on both hops: 0.1.16 (`--suite all`)
// and the newest suite with the requirements of 2025-11-25 and 2026-07-28, plus every scenario neither names — the
// same plan as apps/everything-server's own conformance test (tools/testkit's runConformance). What fails here but not
// against the server directly is listed, with why, in conformance/expected-failures.json.
//
// Where the time goes: the suite's CLI processes (one per run, each a Node 22 start) and the scenarios' own waits.
// The everything-server and the gateways run in this process (as the server's own src/main.ts wires it), so no
// server process starts; the runs go 4 at a time, as the direct test's do.

const app = fileURLToPath(new URL('..', import.meta.url));
const node22 = CURRENT_LINE >= 22 ? process.execPath : nodeBinary(22);
const pinned = conformanceCli('@modelcontextprotocol/conformance');
const next = conformanceCli('@modelcontextprotocol/conformance-next');

// Once per suite, on the system Node: scripts/test-matrix.mjs runs the apps again on Node 22 and 24 (MCPKIT_NODE_LINE
// set), where the suite's CLI is Node 22 anyway and packages/gateway's tests cover the gateway on each line.
const ON_A_MATRIX_LINE = process.env.MCPKIT_NODE_LINE !== undefined;

describe.skipIf(ON_A_MATRIX_LINE)('conformance through the gateway', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('passes the server scenarios the everything-server passes directly (or fails exactly as expected)', {
    timeout: 240_000,
  }, async () => {
    const expected = await readExpectedFailures(join(app, 'conformance/expected-failures.json'));
    const outputRoot = await mkdtemp(join(tmpdir(), 'mcpkit-conformance-gateway-'));
    cleanup.push(() => rm(outputRoot, { recursive: true, force: true }));

    // The upstream: the everything-server as its src/main.ts serves it (SSE polling closes the request's stream).
    let closeRequestStream: ((ctx: Parameters<typeof everythingHandler.closeSseStream>[0]) => void) | undefined;
    const everything = await createEverythingServer({ closeRequestStream: (ctx) => closeRequestStream?.(ctx) });
    const everythingHandler = createStreamableHttpHandler(everything, { retryMs: 500 });
    closeRequestStream = (ctx) => everythingHandler.closeSseStream(ctx);
    const everythingHttp = await listen(everythingHandler, { port: 0, host: '127.0.0.1', path: '/mcp' });
    cleanup.push(() => everythingHttp.close());

    // One gateway per CLI run (each with its own connection upstream), as each run is one client of its own.
    const gatewayTarget = async () => {
      const front = new McpServer({ name: 'mcpkit-gateway', version: '1.0.0' });
      // The everything-server's own task poll interval: the tasks scenarios poll the gateway's tasks.
      const gateway = new Gateway(front, { tasks: { pollIntervalMs: 100 } });
      const mount = await gateway.mount('', upstream({ url: everythingHttp.url }), {
        extensions: { 'io.modelcontextprotocol/skills': ['skills/list', 'skills/get', 'resources/directory/read'] },
      });
      expect(mount.status).toBe('up');
      const listening = await listen(createStreamableHttpHandler(front, { retryMs: 500 }), {
        port: 0,
        host: '127.0.0.1',
        path: '/mcp',
      });
      cleanup.push(async () => {
        await listening.close();
        await gateway.close();
      });
      return ['server', '--url', listening.url.href];
    };

    const report = await runConformance({
      side: 'server',
      pinned,
      next,
      wires: ['2025-11-25', '2026-07-28'],
      legacyWire: '2025-11-25',
      cli: (suite, args, timeoutMs = 120_000) => runConformanceCli(node22, suite, args, { cwd: app, timeoutMs }),
      target: gatewayTarget,
      pinnedRuns: [{ args: ['--suite', 'all'] }],
      expected,
      outputRoot,
      parallel: 4,
      title: 'conformance server scenarios through the gateway',
    });
    console.log(report.table);
    console.log(report.timings.map((t) => `${t.ms} ms  ${t.run}`).join('\n'));
    expect(report.listed.pinned).toBeGreaterThan(0);
    expect(report.listed.next).toBeGreaterThan(0);
    expectClean(report, expect);
  });
});
