// Every option of every public constructor and method is documented: each property of an exported options interface
// (a name ending in Options, Config, Callbacks or Handlers, from any public entry of a package) has TSDoc, and its
// name appears in the package README. A new option without either fails here, naming the package, interface and option.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const PACKAGES = [
  'jsonrpc-core',
  'protocol',
  'auth',
  'server',
  'client',
  'transport-stdio',
  'transport-http',
  'transport-websocket',
  'tasks',
  'skills',
  'apps',
  'gateway',
  'middleware',
  'store-redis',
  'testing',
  'cli',
  'cloudflare',
];
const OPTION_TYPES = /(Options|Config|Callbacks|Handlers)$/;

interface Option {
  owner: string;
  name: string;
  documented: boolean;
}

/** The source entry points of a package: its exports map's `@mcpkit/source` targets. */
function entriesOf(folder: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8'));
  return Object.values(manifest.exports as Record<string, unknown>)
    .map((target) => (target as Record<string, string>)?.['@mcpkit/source'])
    .filter((target): target is string => typeof target === 'string')
    .map((target) => join(root, 'packages', folder, target));
}

const program = ts.createProgram(PACKAGES.flatMap(entriesOf), {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  customConditions: ['@mcpkit/source'],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
  typeRoots: [join(root, 'node_modules', '@types')],
});
const checker = program.getTypeChecker();

/** The options interfaces a package exports, and their own properties (inherited ones belong to their own interface). */
function optionsOf(folder: string): Option[] {
  const options: Option[] = [];
  const seen = new Set<ts.Symbol>();
  for (const entry of entriesOf(folder)) {
    const file = program.getSourceFile(entry);
    const module = file && checker.getSymbolAtLocation(file);
    if (module === undefined) throw new Error(`cannot read ${entry}`);
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!OPTION_TYPES.test(exported.name) || seen.has(symbol)) continue;
      seen.add(symbol);
      // A re-export of another package (the deprecated entries of @mcpkit/client/auth and @mcpkit/middleware) is
      // documented in the README of the package that declares it, which this loop checks on its own turn.
      const own = join(root, 'packages', folder, 'src');
      if (!(symbol.declarations ?? []).some((declaration) => declaration.getSourceFile().fileName.startsWith(own))) {
        continue;
      }
      for (const declaration of symbol.declarations ?? []) {
        const members = ts.isInterfaceDeclaration(declaration)
          ? declaration.members
          : ts.isTypeAliasDeclaration(declaration) && ts.isTypeLiteralNode(declaration.type)
            ? declaration.type.members
            : undefined;
        for (const member of members ?? []) {
          if (!ts.isPropertySignature(member) && !ts.isMethodSignature(member)) continue;
          const name = member.name.getText();
          const docs = ts
            .getJSDocCommentsAndTags(member)
            .map((doc) => doc.getText())
            .join('');
          options.push({ owner: exported.name, name, documented: docs.replace(/[/*\s]/g, '').length > 0 });
        }
      }
    }
  }
  return options;
}

for (const folder of PACKAGES) {
  describe(`@mcpkit/${folder}`, () => {
    const options = optionsOf(folder);
    const readme = readFileSync(join(root, 'packages', folder, 'README.md'), 'utf8');

    it('every option has TSDoc', () => {
      const missing = options.filter((option) => !option.documented).map((option) => `${option.owner}.${option.name}`);
      expect(
        missing,
        `packages/${folder}: options without TSDoc (add a /** … */ comment): ${missing.join(', ')}`,
      ).toEqual([]);
    });

    it('every option is named in the README', () => {
      const missing = options
        .filter((option) => !readme.includes(option.name.replace(/^['"]|['"]$/g, '')))
        .map((option) => `${option.owner}.${option.name}`);
      expect(missing, `packages/${folder}/README.md does not mention: ${missing.join(', ')}`).toEqual([]);
    });
  });
}
