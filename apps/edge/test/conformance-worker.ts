// The everything-server (the conformance fixture) bundled as this app's Worker: test/fixtures/conformance-worker.ts,
// with the server's skills read from its folder here and inlined in the bundle (a Worker has no file system).

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSkillsDirectory } from '@mcpkit/skills/node';
import type { Plugin } from 'esbuild';
import { bundleWorker } from './workerd';

/** apps/everything-server, whose expected failures judge the Worker too. */
export const everything = fileURLToPath(new URL('../../everything-server/', import.meta.url));

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

/** The bundled conformance Worker. */
export async function bundleConformanceWorker(): Promise<string> {
  return bundleWorker('test/fixtures/conformance-worker.ts', [await inlineSkills()]);
}
