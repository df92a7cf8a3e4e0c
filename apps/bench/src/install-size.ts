// "Packages installed for a server-only install", read from the workspace's pnpm-lock.yaml instead of running an
// install (no network, no minutes): the transitive closure of each server package's `dependencies` (peers as pnpm
// resolved them, e.g. zod for the official SDKs; optional dependencies left out, as an install of the package alone
// would not pull an optional peer). Workspace packages count as the packages they would be once published.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Lock {
  /** importer path → its dependency name → version or `link:` */
  importers: Map<string, Map<string, string>>;
  /** snapshot key (name@version(peers)) → dependency name → version(peers) */
  snapshots: Map<string, Map<string, string>>;
}

/** The roots a user installs for a stdio server, per implementation (the floor installs nothing). */
export const SERVER_INSTALLS: Record<'mcpkit' | 'official-v2' | 'official-v1' | 'tmcp', string[]> = {
  mcpkit: ['@mcpkit/server', '@mcpkit/transport-stdio'],
  'official-v2': ['@modelcontextprotocol/server'],
  'official-v1': ['@modelcontextprotocol/sdk'],
  // tmcp needs a schema adapter to take any input; zod's is the one its README starts with (zod itself not counted,
  // as for the others).
  tmcp: ['tmcp', '@tmcp/transport-stdio', '@tmcp/adapter-zod'],
};

const WORKSPACE_DIRS: Record<string, string> = {
  '@mcpkit/server': 'packages/server',
  '@mcpkit/transport-stdio': 'packages/transport-stdio',
};

/** Parses the two sections of pnpm-lock.yaml v9 this needs, by indentation (no YAML library). */
export function parseLock(text: string): Lock {
  const importers = new Map<string, Map<string, string>>();
  const snapshots = new Map<string, Map<string, string>>();
  let section = '';
  let current: Map<string, string> | undefined;
  let inDeps = false;
  let depName: string | undefined;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) {
      section = line.replace(/:.*$/, '');
      current = undefined;
      continue;
    }
    const top = /^ {2}(\S.*):( \{\})?$/.exec(line);
    if (top) {
      current = section === 'importers' || section === 'snapshots' ? new Map() : undefined;
      if (current !== undefined)
        (section === 'importers' ? importers : snapshots).set(unquote(top[1] as string), current);
      inDeps = false;
      continue;
    }
    const group = /^ {4}(\w+):$/.exec(line);
    if (group) {
      inDeps = group[1] === 'dependencies';
      continue;
    }
    if (!inDeps || current === undefined) continue;
    if (section === 'snapshots') {
      const dep = /^ {6}(\S+): (\S+)$/.exec(line);
      if (dep) current.set(unquote(dep[1] as string), dep[2] as string);
    } else if (section === 'importers') {
      const name = /^ {6}(\S+):$/.exec(line);
      if (name) depName = unquote(name[1] as string);
      const version = /^ {8}version: (\S+)$/.exec(line);
      if (version && depName !== undefined) current.set(depName, version[1] as string);
    }
  }
  return { importers, snapshots };
}

function unquote(value: string): string {
  return value.replace(/^'(.*)'$/, '$1');
}

/** The packages (name@version) a server-only install of `roots` pulls in, the roots included. */
export function installClosure(lock: Lock, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visitImporter = (dir: string, name: string): void => {
    if (seen.has(`${name}@workspace`)) return;
    seen.add(`${name}@workspace`);
    for (const [dep, version] of lock.importers.get(dir) ?? []) visit(dep, version, dir);
  };
  const visit = (name: string, version: string, fromDir?: string): void => {
    if (version.startsWith('link:')) {
      const target = join(fromDir ?? '', version.slice('link:'.length)).replace(/\\/g, '/');
      visitImporter(target, name);
      return;
    }
    const key = `${name}@${version}`;
    if (seen.has(key)) return;
    seen.add(key);
    for (const [dep, depVersion] of lock.snapshots.get(key) ?? []) visit(dep, depVersion);
  };
  for (const root of roots) {
    const dir = WORKSPACE_DIRS[root];
    if (dir !== undefined) {
      visitImporter(dir, root);
      continue;
    }
    const key = [...lock.snapshots.keys()].find((candidate) => candidate.startsWith(`${root}@`));
    if (key === undefined) throw new Error(`${root} is not in pnpm-lock.yaml; run pnpm install`);
    visit(root, key.slice(root.length + 1));
  }
  return seen;
}

/** Package counts of a server-only install, per implementation, from the lockfile at `repoRoot`. */
export function serverInstallCounts(repoRoot: string): Record<keyof typeof SERVER_INSTALLS, number> {
  const lock = parseLock(readFileSync(join(repoRoot, 'pnpm-lock.yaml'), 'utf8'));
  return {
    mcpkit: installClosure(lock, SERVER_INSTALLS.mcpkit).size,
    'official-v2': installClosure(lock, SERVER_INSTALLS['official-v2']).size,
    'official-v1': installClosure(lock, SERVER_INSTALLS['official-v1']).size,
    tmcp: installClosure(lock, SERVER_INSTALLS.tmcp).size,
  };
}
