import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from '../exit-codes';
import type { Template } from './templates';

/** What `scaffold` needs: the template, the new folder, and where the mcpkit packages come from. */
export interface ScaffoldOptions {
  template: Template;
  folder: string;
  /** A folder of packed tarballs (`node scripts/pack.mjs`): dependencies point at them instead of the registry. */
  from?: string;
}

/** The folder of @mcpkit/cli: found from this module upwards (from src/ in the repository, dist/ when installed). */
function packageRoot(): string {
  // typeof: CommonJS has __dirname, ESM has import.meta.url (the CJS build leaves it empty).
  let folder = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@mcpkit/cli'
    ) {
      return folder;
    }
    const parent = dirname(folder);
    if (parent === folder) throw new CliError('failure', 'Cannot find the folder of @mcpkit/cli');
    folder = parent;
  }
}

/** Where a template's app and its test are: in the published package (templates/), else in the repository. */
function templateSources(root: string, template: Template): { app: string; test: string } {
  for (const app of [join(root, 'templates', template.app), join(root, '..', '..', 'apps', template.app)]) {
    if (existsSync(join(app, 'package.json'))) {
      return { app, test: join(root, 'scaffold', template.name, 'test') };
    }
  }
  throw new CliError('failure', `The ${template.name} template is missing from this installation of @mcpkit/cli`);
}

/** Versions the new project's tooling starts with (they run on Node 20). */
const TOOLING: Record<string, string> = {
  tsx: '^4.23.15',
  typescript: '~5.9.3',
  vitest: '^4.1.12',
  '@types/node': '^20.19.0',
};

/**
 * Copies a template into a new folder as a standalone project: its sources, a test, a package.json whose mcpkit
 * packages are ordinary dependencies (or the tarballs of `from`), a tsconfig and a README. Refuses a folder that
 * exists and is not empty.
 *
 * @example
 * scaffold({ template: TEMPLATES[0], folder: 'my-server' });
 */
export function scaffold(options: ScaffoldOptions): string[] {
  const folder = resolve(options.folder);
  if (existsSync(folder) && readdirSync(folder).length > 0) {
    throw new CliError('usage', `${folder} exists and is not empty: pick a new folder`);
  }
  const { template } = options;
  const root = packageRoot();
  const cliVersion = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const sources = templateSources(root, template);
  for (const entry of template.copy) cpSync(join(sources.app, entry), join(folder, entry), { recursive: true });
  cpSync(sources.test, join(folder, 'test'), { recursive: true });

  const app = JSON.parse(readFileSync(join(sources.app, 'package.json'), 'utf8')) as {
    description?: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const tarballs = options.from ? tarballsIn(resolve(options.from)) : new Map<string, string>();
  const version = (name: string, range: string): string | undefined => {
    if (!range.startsWith('workspace:')) return range;
    if (name === '@mcpkit/testkit' || name === '@mcpkit/node-lines') return undefined; // the repository's own tools
    const tarball = tarballs.get(name);
    if (options.from && tarball === undefined) throw new CliError('usage', `No tarball of ${name} in ${options.from}`);
    return tarball ? `file:${tarball}` : `^${cliVersion}`;
  };
  const dependencies = mapDependencies(app.dependencies ?? {}, version);
  const devDependencies = {
    ...mapDependencies(app.devDependencies ?? {}, version, /^@modelcontextprotocol\//),
    ...TOOLING,
  };
  const name = basename(folder)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-');
  const manifest = {
    name,
    version: '0.1.0',
    private: true,
    description: app.description ?? `An MCP server made from the mcpkit ${template.name} template`,
    type: 'module',
    engines: { node: '>=20.19' },
    scripts: { ...template.scripts, test: 'vitest run', typecheck: 'tsc --noEmit' },
    dependencies,
    devDependencies,
    // npm installs the packages the tarballs depend on from these same tarballs, not from the registry.
    ...(tarballs.size
      ? { overrides: Object.fromEntries([...tarballs].map(([pkg, file]) => [pkg, `file:${file}`])) }
      : {}),
  };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(folder, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  writeFileSync(join(folder, '.gitignore'), 'node_modules\n*.db\n');
  writeFileSync(join(folder, 'README.md'), readme(name, template));
  return [...template.copy, 'test', 'package.json', 'tsconfig.json', 'README.md', '.gitignore'];
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    module: 'Preserve',
    moduleResolution: 'bundler',
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    verbatimModuleSyntax: true,
    resolveJsonModule: true,
  },
  include: ['src', 'test'],
};

function readme(name: string, template: Template): string {
  return `# ${name}

An MCP server made from the mcpkit **${template.name}** template: ${template.description}.

\`\`\`sh
npm install
npm start            # runs the server
npm test             # its test (vitest)
npm run typecheck
\`\`\`

Try it with the mcpkit command line: \`npx @mcpkit/cli tools list -- npx tsx ${template.scripts.start?.split(' ')[1] ?? 'src/server.ts'}\`
(an HTTP server: start it, then \`npx @mcpkit/cli tools list --url http://127.0.0.1:3000/mcp\`).
`;
}

function mapDependencies(
  dependencies: Record<string, string>,
  version: (name: string, range: string) => string | undefined,
  drop?: RegExp,
): Record<string, string> {
  const mapped: Record<string, string> = {};
  for (const [name, range] of Object.entries(dependencies)) {
    if (drop?.test(name)) continue;
    const resolved = version(name, range);
    if (resolved !== undefined) mapped[name] = resolved;
  }
  return mapped;
}

/** The tarballs `pnpm pack` wrote, by package name (`mcpkit-transport-http-0.0.0.tgz` → `@mcpkit/transport-http`). */
function tarballsIn(folder: string): Map<string, string> {
  let files: string[];
  try {
    files = readdirSync(folder);
  } catch (error) {
    throw new CliError('usage', `Cannot read --from ${folder}: ${(error as Error).message}`);
  }
  const found = new Map<string, string>();
  for (const file of files) {
    const match = /^mcpkit-(.+)-\d+\.\d+\.\d+(?:-[\w.]+)?\.tgz$/.exec(file);
    if (match) found.set(`@mcpkit/${match[1]}`, join(folder, file));
  }
  return found;
}
