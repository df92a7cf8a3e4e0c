#!/usr/bin/env node
// `npm run docs`: the API reference of every published package as one TypeDoc site (docs/api/ by default).
//
// - One TypeScript program over every package's source (the `@mcpkit/source` entries of each exports map), so a type
//   of @mcpkit/jsonrpc-core used by @mcpkit/server links to its page: cross-package links for free.
// - Each entry point is named as users import it (`@mcpkit/transport-http/node`), and each package's root entry has
//   its README as its front page.
// - Fails (exit 1) on a broken `{@link}` or any other TypeDoc warning (treatWarningsAsErrors), and on an export
//   without a doc comment, except in the packages config.json lists as `commentsPending` (reported, not fatal).
//
//   node tools/api-docs/build.mjs [--out <folder>] [--json <file>] [--no-html]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Application, Converter, MinimalSourceFile, ReflectionKind } from 'typedoc';

const root = resolve(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: join(root, 'docs', 'api') },
    json: { type: 'string' },
    'no-html': { type: 'boolean', default: false },
  },
});
const config = JSON.parse(readFileSync(join(import.meta.dirname, 'config.json'), 'utf8'));
const pending = new Set(config.commentsPending);

/** Every published package: its folder, name, and its entry points (source file -> import specifier). */
const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => {
    const dir = join(root, 'packages', entry.name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const entries = Object.entries(manifest.exports ?? {})
      .filter(([, target]) => typeof target === 'object' && target?.['@mcpkit/source'])
      .map(([subpath, target]) => ({
        file: join(dir, target['@mcpkit/source']),
        specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      }));
    return { folder: entry.name, dir, name: manifest.name, private: manifest.private === true, entries };
  })
  .filter((pkg) => !pkg.private && pkg.entries.length > 0);

// A README links to folders and files of the repository (`../jsonrpc-core/README.md#…`, `apps/quickstart`), which
// GitHub shows and a docs site cannot: those links go to the repository on GitHub. Images and web links stay.
const REPOSITORY = 'https://github.com/mcpkit/mcpkit';
function forTheSite(markdown, file) {
  return markdown.replace(/\]\(([^)\s]+)\)/g, (whole, target) => {
    if (/^([a-z]+:|#|\/)/i.test(target)) return whole;
    const [path, anchor] = target.split('#');
    const absolute = resolve(dirname(file), path);
    if (!existsSync(absolute)) return whole; // TypeDoc reports it: a broken link fails the build
    if (/\.(png|svg|jpe?g|gif)$/i.test(path)) return whole;
    const kind = statSync(absolute).isDirectory() ? 'tree' : 'blob';
    const url = `${REPOSITORY}/${kind}/main/${relative(root, absolute)}${anchor === undefined ? '' : `#${anchor}`}`;
    return `](${url})`;
  });
}
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-docs-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const frontPage = join(scratch, 'README.md');
writeFileSync(frontPage, forTheSite(readFileSync(join(root, 'README.md'), 'utf8'), join(root, 'README.md')));

const specifierOf = new Map(packages.flatMap((pkg) => pkg.entries.map((entry) => [entry.file, entry.specifier])));
const packageOf = new Map(packages.flatMap((pkg) => pkg.entries.map((entry) => [entry.specifier, pkg])));

// What must carry a doc comment: everything a user imports by name.
const DOCUMENTED_KINDS = [
  ReflectionKind.Class,
  ReflectionKind.Interface,
  ReflectionKind.Function,
  ReflectionKind.Variable,
  ReflectionKind.TypeAlias,
  ReflectionKind.Enum,
  ReflectionKind.Namespace,
];

const app = await Application.bootstrapWithPlugins({
  name: 'mcpkit',
  entryPoints: packages.flatMap((pkg) => pkg.entries.map((entry) => entry.file)),
  entryPointStrategy: 'resolve',
  tsconfig: join(import.meta.dirname, 'tsconfig.json'),
  readme: frontPage,
  out: values.out,
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  disableGit: true,
  sourceLinkTemplate: 'https://github.com/mcpkit/mcpkit/blob/main/{path}#L{line}',
  githubPages: false,
  hideGenerator: true,
  highlightLanguages: [
    'toml',
    'bash',
    'console',
    'css',
    'diff',
    'html',
    'http',
    'javascript',
    'json',
    'jsonc',
    'shellscript',
    'tsx',
    'typescript',
    'yaml',
  ],
  treatWarningsAsErrors: true,
  // Type errors are tsc's job (every package's typecheck); checking the whole program again here doubled the time.
  skipErrorChecking: true,
  // Undocumented exports are counted below, per package (config.json can hold a package back); TypeDoc checks links.
  validation: {
    notExported: false,
    invalidLink: true,
    rewrittenLink: true,
    notDocumented: false,
    unusedMergeModuleWith: true,
  },
  logLevel: 'Warn',
});

// Name each entry point as users import it, and give each package's root entry its README.
app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
  const project = context.project;
  for (const module of project.children ?? []) {
    const file = module.sources?.[0]?.fullFileName;
    const specifier = file === undefined ? undefined : specifierOf.get(resolve(file));
    if (specifier === undefined) continue;
    module.name = specifier;
    const pkg = packageOf.get(specifier);
    if (pkg !== undefined && specifier === pkg.name) {
      const path = join(pkg.dir, 'README.md');
      const text = forTheSite(readFileSync(path, 'utf8'), path);
      module.readme = app.converter.parseRawComment(new MinimalSourceFile(text, path), project.files).content;
    }
  }
});

const project = await app.convert();
if (project === undefined) {
  console.error('[docs] TypeDoc could not convert the packages (see the errors above)');
  process.exit(1);
}

// Undocumented exports, per package.
const report = new Map(packages.map((pkg) => [pkg.name, { documented: 0, total: 0, missing: [] }]));
for (const module of project.children ?? []) {
  const pkg = packageOf.get(module.name);
  if (pkg === undefined) continue;
  const counts = report.get(pkg.name);
  for (const child of module.children ?? []) {
    if (!DOCUMENTED_KINDS.includes(child.kind)) continue;
    counts.total++;
    const signatures = child.signatures ?? [];
    const commented = child.hasComment() || signatures.some((signature) => signature.hasComment());
    if (commented) counts.documented++;
    else counts.missing.push(`${module.name}: ${child.name}`);
  }
}
let failing = 0;
let documented = 0;
let total = 0;
for (const [name, counts] of report) {
  documented += counts.documented;
  total += counts.total;
  const folder = name.slice('@mcpkit/'.length);
  const held = pending.has(folder);
  if (counts.missing.length > 0 && !held) failing += counts.missing.length;
  const status = counts.missing.length === 0 ? 'ok' : held ? 'comments pending' : 'FAIL';
  console.log(`[docs] ${name}: ${counts.documented}/${counts.total} exports documented (${status})`);
  if (!held) for (const missing of counts.missing) console.log(`[docs]   no doc comment: ${missing}`);
}
console.log(`[docs] ${documented}/${total} exports documented in ${report.size} packages`);

if (values.json !== undefined) {
  writeFileSync(
    values.json,
    JSON.stringify(Object.fromEntries([...report].map(([name, counts]) => [name, counts])), null, 2),
  );
}

app.validate(project);
if (!values['no-html']) await app.generateDocs(project, values.out);
const warnings = app.logger.warningCount + app.logger.errorCount;
if (warnings > 0 || failing > 0) {
  console.error(
    `[docs] failed: ${warnings} TypeDoc warning(s)/error(s), ${failing} undocumented export(s) in packages not listed in tools/api-docs/config.json`,
  );
  process.exit(1);
}
if (!values['no-html']) console.log(`[docs] API reference in ${join(values.out, 'index.html')}`);
