#!/usr/bin/env node
// Packaging is checked, not hoped for. For every published package:
//   1. the dependency graph only points down (jsonrpc-core <- protocol <- auth <- server/client <- the rest);
//   2. publint finds no error or warning in the package as it would be published;
//   3. @arethetypeswrong/cli resolves every entry point for node10, node16 (CJS and ESM) and bundlers;
//   4. the manifest is ready to publish: description, keywords, license (and a LICENSE file identical to the root's),
//      author, repository pointing at its own folder (what npm provenance checks), homepage, bugs, public access,
//      engines, and `files` with dist, README.md and LICENSE.
// The tarball comes from `pnpm pack`, so `workspace:` ranges are rewritten exactly as a release would.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);

/**
 * Layer of each package: a package may depend only on packages of a lower layer. One exception, by name: an optional
 * peer dependency that only one subpath needs (what that subpath plugs into) may point up, as long as the target does
 * not depend back (checked below). @mcpkit/auth sits below client and server because the deprecated
 * `@mcpkit/client/auth` entry re-exports it; its `/server` entry plugs into @mcpkit/server, an optional peer.
 */
const layers = {
  'jsonrpc-core': 0,
  protocol: 1,
  auth: 1.5,
  server: 2,
  client: 2,
  'transport-stdio': 3,
  'transport-http': 3,
  'transport-websocket': 3,
  tasks: 3,
  skills: 3,
  apps: 3,
  middleware: 3,
  'store-redis': 4,
  gateway: 4,
  testing: 4,
  cli: 5,
  'create-mcpkit': 6,
  cloudflare: 4,
};

const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const rootLicense = readFileSync(join(root, 'LICENSE'), 'utf8');

/** What a published manifest must carry; each problem names the package and the field. */
function checkManifest(folder, manifest) {
  const where = `packages/${folder}/package.json`;
  const need = (ok, what) => {
    if (!ok) problems.push(`${where}: ${what}`);
  };
  // `npm create mcpkit` looks for the unscoped `create-mcpkit`: the one package outside the scope.
  const name = folder === 'create-mcpkit' ? 'create-mcpkit' : `@mcpkit/${folder}`;
  need(manifest.name === name, `"name" must be "${name}"`);
  need(typeof manifest.description === 'string' && manifest.description.length > 20, '"description" is missing');
  need(Array.isArray(manifest.keywords) && manifest.keywords.includes('mcp'), '"keywords" must include "mcp"');
  need(manifest.license === rootManifest.license, `"license" must be "${rootManifest.license}"`);
  need(typeof manifest.author === 'string', '"author" is missing');
  need(
    manifest.repository?.url === 'git+https://github.com/mcpkit/mcpkit.git' &&
      manifest.repository?.directory === `packages/${folder}`,
    `"repository" must be {type: "git", url: "git+https://github.com/mcpkit/mcpkit.git", directory: "packages/${folder}"} (npm provenance compares it with the repository that built the package)`,
  );
  need(
    typeof manifest.homepage === 'string' && manifest.homepage.includes(`packages/${folder}`),
    '"homepage" must point at the package folder',
  );
  need(typeof manifest.bugs?.url === 'string', '"bugs.url" is missing');
  need(
    manifest.publishConfig?.access === 'public',
    '"publishConfig.access" must be "public" (a scoped package is private by default)',
  );
  need(manifest.engines?.node === rootManifest.engines.node, `"engines.node" must be "${rootManifest.engines.node}"`);
  for (const file of ['dist', 'README.md', 'LICENSE'])
    need(manifest.files?.includes(file), `"files" must list "${file}"`);
  let license = '';
  try {
    license = readFileSync(join(root, 'packages', folder, 'LICENSE'), 'utf8');
  } catch {}
  need(license === rootLicense, 'LICENSE must be a copy of the root LICENSE');
}

/** True when packages/<from> reaches packages/<to> through its (peer) dependencies: an upward peer would be a cycle. */
function dependsOn(from, to, seen = new Set()) {
  if (seen.has(from)) return false;
  seen.add(from);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(root, 'packages', from, 'package.json'), 'utf8'));
  } catch {
    return false;
  }
  return Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
    .filter((dep) => dep.startsWith('@mcpkit/'))
    .some((dep) => dep === `@mcpkit/${to}` || dependsOn(dep.slice('@mcpkit/'.length), to, seen));
}

const folders = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const problems = [];

for (const folder of folders) {
  if (!(folder in layers))
    problems.push(`packages/${folder}: not placed in the dependency graph (scripts/check-packages.mjs)`);
  const manifest = JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8'));
  checkManifest(folder, manifest);
  for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
    if (!dep.startsWith('@mcpkit/')) continue;
    const target = dep.slice('@mcpkit/'.length);
    const subpathPeer =
      manifest.peerDependenciesMeta?.[dep]?.optional === true && !(dep in (manifest.dependencies ?? {}));
    if (subpathPeer && !dependsOn(target, folder)) continue;
    if (!(layers[target] < layers[folder])) {
      problems.push(`packages/${folder} depends on ${dep}, which is not below it in the graph`);
    }
  }
}

/** The tarball `npm test`'s pack stage wrote for this package (MCPKIT_PACKS), if there is one. */
function packedByTestAll(dir) {
  const packs = process.env.MCPKIT_PACKS;
  if (!packs) return undefined;
  const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const file = join(packs, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
  return existsSync(file) ? file : undefined;
}

async function checkPackage(folder) {
  const dir = join(root, 'packages', folder);
  const out = mkdtempSync(join(tmpdir(), `mcpkit-pack-${folder}-`));
  try {
    let tarball = packedByTestAll(dir);
    if (tarball === undefined) {
      await run(bin('pnpm'), ['pack', '--pack-destination', out], { cwd: dir });
      tarball = join(
        out,
        readdirSync(out).find((file) => file.endsWith('.tgz')),
      );
    }
    const lint = await run(bin('publint'), [tarball, '--strict'], { cwd: dir }).catch((error) => error);
    if (lint.code) problems.push(`packages/${folder}: publint\n${lint.stdout}${lint.stderr}`);
    const types = await run(bin('attw'), [tarball, '--format', 'table-flipped', '--no-emoji'], { cwd: dir }).catch(
      (error) => error,
    );
    if (types.code) problems.push(`packages/${folder}: attw\n${types.stdout}${types.stderr}`);
    return `${folder}: publint ${lint.code ? 'FAILED' : 'ok'}, attw ${types.code ? 'FAILED' : 'ok'}`;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// Two at a time: the machines have two cores.
const results = [];
for (let i = 0; i < folders.length; i += 2) {
  results.push(...(await Promise.all(folders.slice(i, i + 2).map(checkPackage))));
}
for (const line of results) console.log(`[packages] ${line}`);

if (problems.length > 0) {
  console.error(`\n[packages] ${problems.length} problem(s):\n\n${problems.join('\n\n')}`);
  process.exit(1);
}
console.log(`[packages] ${folders.length} packages: graph, manifests, publint and attw all clean`);
