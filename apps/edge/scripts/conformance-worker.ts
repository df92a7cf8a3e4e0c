// Runs the official conformance server suite (0.1.16 whole, and the newest suite's 2025-11-25 and 2026-07-28
// requirement sets) against apps/everything-server's server deployed as a Worker in workerd, and prints the outcomes
// judged against the everything-server's expected failures (those of Node): a difference is a Worker difference.
// Not part of `npm test` (it takes minutes); `pnpm --filter @mcpkit/app-edge conformance:worker`.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CURRENT_LINE, nodeBinary } from '@mcpkit/node-lines';
import { readSkillsDirectory } from '@mcpkit/skills/node';
import {
  collectOutcomes,
  conformanceCli,
  formatRuns,
  inPool,
  judgeRuns,
  type RunOutcome,
  readExpectedFailures,
  runConformanceCli,
} from '@mcpkit/testkit';
import type { Plugin } from 'esbuild';
import { bundleWorker, startWorkers } from '../test/workerd';

const everything = fileURLToPath(new URL('../../everything-server/', import.meta.url));

/** The everything-server's skills, read here and inlined in the bundle (a Worker has no file system). */
async function inlineSkills(): Promise<Plugin> {
  const skills = await readSkillsDirectory(join(everything, 'skills'));
  const wire = skills.map((skill) => ({
    ...skill,
    files: Object.fromEntries(
      Object.entries(skill.files).map(([path, content]) => [
        path,
        typeof content === 'string'
          ? { text: content }
          : { base64: Buffer.from(content as Uint8Array).toString('base64') },
      ]),
    ),
  }));
  const source = `
import { SkillsServer } from '@mcpkit/skills';
const wire = ${JSON.stringify(wire)};
const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const skills = wire.map((skill) => ({ ...skill, files: Object.fromEntries(Object.entries(skill.files).map(([p, f]) => [p, 'text' in f ? f.text : bytes(f.base64)])) }));
export async function registerSkillsScenarios(server) {
  const served = new SkillsServer(server, { skills });
  await served.ready;
  return served;
}`;
  return {
    name: 'inline-skills',
    setup(build) {
      build.onResolve({ filter: /\/skills-scenarios$/ }, () => ({ path: 'skills-scenarios', namespace: 'inline' }));
      build.onLoad({ filter: /.*/, namespace: 'inline' }, () => ({
        contents: source,
        loader: 'js',
        resolveDir: everything,
      }));
    },
  };
}

const node22 = CURRENT_LINE >= 22 ? process.execPath : nodeBinary(22);
const pinned = conformanceCli('@modelcontextprotocol/conformance');
const next = conformanceCli('@modelcontextprotocol/conformance-next');
const workers = await startWorkers(await bundleWorker('test/fixtures/conformance-worker.ts', [await inlineSkills()]));
const outputRoot = await mkdtemp(join(tmpdir(), 'mcpkit-conformance-worker-'));
try {
  const url = workers.url.href;
  const runs = [
    { suite: pinned, wire: '2025-11-25', args: ['server', '--url', url, '--suite', 'all'] },
    ...(['2025-11-25', '2026-07-28'] as const).map((wire) => ({
      suite: next,
      wire,
      args: ['server', '--url', url, '--requirements', wire],
    })),
  ];
  const started = performance.now();
  const outcomes = (
    await inPool(runs, 3, async (run, index) => {
      const dir = join(outputRoot, `${index}`);
      await runConformanceCli(node22, run.suite, [...run.args, '-o', dir], { cwd: everything, timeoutMs: 300_000 });
      const found = await collectOutcomes(dir, 'server');
      return found.map((outcome): RunOutcome => ({ ...outcome, suite: run.suite.label, wire: run.wire }));
    })
  ).flat();
  const expected = await readExpectedFailures(join(everything, 'conformance/expected-failures.json'));
  console.log(formatRuns('conformance server scenarios against the Worker', outcomes, expected));
  const { unexpected, stale } = judgeRuns(outcomes, expected);
  console.log(`\n${outcomes.length} outcomes in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  for (const o of unexpected) console.log(`UNEXPECTED [${o.suite} ${o.wire}] ${o.scenario}: ${o.problems.join('; ')}`);
  for (const o of stale) console.log(`PASSES HERE, FAILS ON NODE [${o.suite} ${o.wire}] ${o.scenario}`);
} finally {
  await workers.dispose();
  await rm(outputRoot, { recursive: true, force: true });
}
