#!/usr/bin/env node
// The public surface of every published package, as a reviewer reads it: for each entry point in a package's
// `exports` map, every exported name with its kind and signature, one line each. The report of each package is
// checked in (api/<package>.api.md); test/api-report.test.ts fails when the source surface differs from it, so a
// change to the public API is a decision made in review, not an accident.
//
// It reads the TypeScript source through the `@mcpkit/source` condition with the compiler API (no build needed):
// one program for all entry points, so the whole run takes seconds.
//
//   node scripts/api-report.mjs            write api/*.api.md (accept the current surface)
//   node scripts/api-report.mjs --check    exit 1 and list the packages whose surface differs from the report
//   node scripts/api-report.mjs --count    print the number of exported names per package
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const reportFolder = join(root, 'api');

/** The published packages and, for each, its entry points (subpath → source file). */
export function entryPoints() {
  const packages = [];
  for (const folder of readdirSync(join(root, 'packages')).sort()) {
    const manifestPath = join(root, 'packages', folder, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (manifest.private) continue;
    const entries = [];
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === 'object' && target !== null ? target['@mcpkit/source'] : undefined;
      if (typeof source !== 'string' || !source.endsWith('.ts')) continue;
      entries.push({ subpath, file: join(root, 'packages', folder, source) });
    }
    packages.push({ folder, name: manifest.name, entries });
  }
  return packages;
}

const FORMAT =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.WriteArrowStyleSignature |
  ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

function kindOf(symbol) {
  const f = symbol.flags;
  if (f & ts.SymbolFlags.Class) return 'class';
  if (f & ts.SymbolFlags.Function) return 'function';
  if (f & ts.SymbolFlags.Enum) return 'enum';
  if (f & ts.SymbolFlags.Interface) return 'interface';
  if (f & ts.SymbolFlags.TypeAlias) return 'type';
  if (f & ts.SymbolFlags.Variable) return 'const';
  if (f & ts.SymbolFlags.Module) return 'namespace';
  return 'other';
}

function isPublicMember(symbol) {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (declaration === undefined) return true;
  if (symbol.name.startsWith('#') || symbol.name.startsWith('__')) return false;
  const modifiers = ts.getCombinedModifierFlags(declaration);
  return (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0;
}

/**
 * Whether a member is declared in the workspace's source, not inherited from a library's declarations (`Error`'s
 * statics, DOM types): those are not our surface, and they change with the installed @types.
 */
function declaredHere(symbol) {
  return (symbol.declarations ?? []).some((declaration) => !declaration.getSourceFile().isDeclarationFile);
}

/** Members of a class or interface, one `name: type` each (sorted, so declaration order changes nothing). */
function membersOf(checker, type, where) {
  const lines = [];
  for (const member of checker.getPropertiesOfType(type)) {
    if (!isPublicMember(member) || !declaredHere(member)) continue;
    const memberType = checker.getTypeOfSymbolAtLocation(member, where);
    const optional = member.flags & ts.SymbolFlags.Optional ? '?' : '';
    lines.push(`${member.name}${optional}: ${checker.typeToString(memberType, where, FORMAT)}`);
  }
  return lines.sort();
}

function describe(checker, exported, where) {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const kind = kindOf(symbol);
  const name = exported.name;
  switch (kind) {
    case 'function': {
      const type = checker.getTypeOfSymbolAtLocation(symbol, where);
      return type
        .getCallSignatures()
        .map((signature) => `function ${name}${checker.signatureToString(signature, where, FORMAT)}`);
    }
    case 'class': {
      const instance = checker.getDeclaredTypeOfSymbol(symbol);
      const statics = checker.getTypeOfSymbolAtLocation(symbol, where);
      const construct = statics
        .getConstructSignatures()
        .map((signature) => `  new${checker.signatureToString(signature, where, FORMAT)}`);
      const staticMembers = membersOf(checker, statics, where)
        .filter((line) => !line.startsWith('prototype:'))
        .map((line) => `  static ${line}`);
      return [
        `class ${name}`,
        ...construct,
        ...staticMembers,
        ...membersOf(checker, instance, where).map((line) => `  ${line}`),
      ];
    }
    case 'interface': {
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      return [`interface ${name}`, ...membersOf(checker, type, where).map((line) => `  ${line}`)];
    }
    case 'type': {
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      return [`type ${name} = ${checker.typeToString(type, where, FORMAT | ts.TypeFormatFlags.InTypeAlias)}`];
    }
    case 'enum':
      return [`enum ${name}`];
    case 'const': {
      const type = checker.getTypeOfSymbolAtLocation(symbol, where);
      return [`const ${name}: ${checker.typeToString(type, where, FORMAT)}`];
    }
    default:
      return [`${kind} ${name}`];
  }
}

/**
 * Every package's report: `{ folder, name, count, text }`. `count`: the distinct exported names over all entry points
 * (a name a deprecated entry re-exports counts once: it is one thing to learn).
 */
export function buildReports() {
  const packages = entryPoints();
  const files = packages.flatMap((pkg) => pkg.entries.map((entry) => entry.file));
  const base = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile).config;
  const { options } = ts.convertCompilerOptionsFromJson(base.compilerOptions, root);
  const program = ts.createProgram(files, { ...options, noEmit: true, skipLibCheck: true, types: ['node'] });
  const checker = program.getTypeChecker();
  return packages.map((pkg) => {
    const names = new Set();
    const sections = [];
    for (const entry of pkg.entries) {
      const source = program.getSourceFile(entry.file);
      const moduleSymbol = source && checker.getSymbolAtLocation(source);
      const exported = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
      for (const symbol of exported) names.add(symbol.name);
      const blocks = exported
        .slice()
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map((symbol) => describe(checker, symbol, source).join('\n'));
      const importPath = entry.subpath === '.' ? pkg.name : `${pkg.name}/${entry.subpath.slice(2)}`;
      sections.push(`## \`${importPath}\` (${exported.length} exports)\n\n\`\`\`ts\n${blocks.join('\n')}\n\`\`\`\n`);
    }
    const text = [
      `# API report: ${pkg.name}`,
      '',
      `Generated by \`node scripts/api-report.mjs\` from the TypeScript source; ${names.size} distinct exported names.`,
      'Review a change here like code: it is a change to what users can import.',
      '',
      ...sections,
    ].join('\n');
    return { folder: pkg.folder, name: pkg.name, count: names.size, text };
  });
}

export function reportPath(folder) {
  return join(reportFolder, `${folder}.api.md`);
}

/** Packages whose surface differs from the checked-in report. */
export function staleReports(reports = buildReports()) {
  return reports.filter((report) => {
    const path = reportPath(report.folder);
    return !existsSync(path) || readFileSync(path, 'utf8') !== report.text;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = process.argv[2];
  const reports = buildReports();
  if (mode === '--count') {
    for (const report of reports) console.log(`${report.name}\t${report.count}`);
    console.log(`total\t${reports.reduce((sum, report) => sum + report.count, 0)}`);
  } else if (mode === '--check') {
    const stale = staleReports(reports);
    for (const report of stale) console.error(`${reportPath(report.folder)} differs from the source surface`);
    if (stale.length > 0) {
      console.error('Review the change, then accept it with: node scripts/api-report.mjs');
      process.exit(1);
    }
  } else {
    mkdirSync(reportFolder, { recursive: true });
    for (const report of reports) writeFileSync(reportPath(report.folder), report.text);
    console.log(`wrote ${reports.length} reports to api/`);
  }
}
