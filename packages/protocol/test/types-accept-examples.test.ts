import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Type-checks every official 2026-07-28 example against this package's types, so the hand-written types cannot drift
// from the schema: each example becomes `const x = <example> as const satisfies <our type>` in a virtual module that
// the TypeScript compiler checks with the package's tsconfig.

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const examplesDir = new URL('fixtures/spec/2026-07-28/examples/', import.meta.url);
const virtualFile = `${packageRoot}src/__examples__.ts`;

const RESPONSE_METHODS: Record<string, string> = {
  CallToolResultResponse: 'tools/call',
  CompleteResultResponse: 'completion/complete',
  DiscoverResultResponse: 'server/discover',
  GetPromptResultResponse: 'prompts/get',
  ListPromptsResultResponse: 'prompts/list',
  ListResourceTemplatesResultResponse: 'resources/templates/list',
  ListResourcesResultResponse: 'resources/list',
  ListToolsResultResponse: 'tools/list',
  ReadResourceResultResponse: 'resources/read',
  SubscriptionsListenResultResponse: 'subscriptions/listen',
};
// Params and results that carry no 2026 envelope or resultType (input requests and their responses).
const PLAIN = new Set(['CreateMessageRequestParams', 'CreateMessageResult', 'ElicitResult', 'ListRootsResult']);

// Examples the schema accepts only through a loophole, which our stricter types rightly reject:
// - a roots/list input request carrying an `id` (the schema allows extra keys; input requests have no id);
// - a resources/read result without `ttlMs` / `cacheScope`, which passes the schema only as an InputRequiredResult
//   (whose schema does not enforce "inputRequests or requestState").
const KNOWN_LOOPHOLES = new Set([
  'ListRootsRequest/list-roots-request.json',
  'ReadResourceResultResponse/read-resource-result-response.json',
]);

function typeFor(definition: string, example: Record<string, unknown>): string {
  const response = RESPONSE_METHODS[definition];
  if (response !== undefined) return `Res<'${response}'>`;
  if (definition.endsWith('Error')) return 'jsonrpc' in example ? 'Err' : 'ErrObj';
  if ('jsonrpc' in example && 'method' in example) {
    return 'id' in example ? `Req<'${example.method}'>` : `Note<'${example.method}'>`;
  }
  if (PLAIN.has(definition)) return `P.${definition}`;
  if (definition.endsWith('RequestParams')) return `P.ModernRequestParams<P.${definition}>`;
  if (definition.endsWith('Result')) return `P.ModernResult<P.${definition}>`;
  return `P.${definition}`;
}

interface Entry {
  name: string;
  line: number;
}

function buildModule(): { source: string; entries: Entry[] } {
  const lines = [
    "import type { RequestId } from '@mcpkit/jsonrpc-core';",
    "import type * as P from './index.js';",
    "type Req<M extends P.RequestMethod> = { jsonrpc: '2.0'; id: RequestId; method: M; params: P.ModernRequestParams<P.RequestParamsOf<M>> };",
    "type Note<M extends P.NotificationMethod> = { jsonrpc: '2.0'; method: M; params?: P.NotificationParamsOf<M> };",
    "type Res<M extends P.RequestMethod> = { jsonrpc: '2.0'; id: RequestId; result: P.ModernResult<P.ResultOf<M>> | P.InterimResultOf<M> };",
    'type ErrObj = { code: number; message: string; data?: unknown };',
    "type Err = { jsonrpc: '2.0'; id?: RequestId; error: ErrObj };",
  ];
  const entries: Entry[] = [];
  for (const definition of readdirSync(examplesDir).sort()) {
    for (const file of readdirSync(new URL(`${definition}/`, examplesDir)).sort()) {
      const example = JSON.parse(readFileSync(new URL(`${definition}/${file}`, examplesDir), 'utf8'));
      entries.push({ name: `${definition}/${file}`, line: lines.length });
      lines.push(
        `export const example${entries.length} = ${JSON.stringify(example)} as const satisfies ${typeFor(definition, example)};`,
      );
    }
  }
  return { source: lines.join('\n'), entries };
}

function typeCheck(source: string): ts.Diagnostic[] {
  const configPath = `${packageRoot}tsconfig.json`;
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, packageRoot);
  const options = { ...parsed.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    fileName === virtualFile
      ? ts.createSourceFile(fileName, source, languageVersion, true)
      : getSourceFile(fileName, languageVersion, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => fileName === virtualFile || fileExists(fileName);
  const program = ts.createProgram([virtualFile], options, host);
  const sourceFile = program.getSourceFile(virtualFile);
  if (sourceFile === undefined) throw new Error('virtual module missing');
  return [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)];
}

describe('types accept the official 2026-07-28 examples', () => {
  it('type-checks every example against the matching type', { timeout: 60_000 }, () => {
    const { source, entries } = buildModule();
    expect(entries.length).toBeGreaterThanOrEqual(129);
    const failing = new Map<string, string>();
    for (const diagnostic of typeCheck(source)) {
      const line = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line ?? -1;
      const entry = entries.find((candidate) => candidate.line === line);
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      failing.set(entry?.name ?? `line ${line}: ${message}`, message.slice(0, 300));
    }
    const unexpected = [...failing].filter(([name]) => !KNOWN_LOOPHOLES.has(name));
    expect(unexpected).toEqual([]);
    // The loopholes still fail: if the fixtures change, this test says so.
    expect([...failing.keys()].sort()).toEqual([...KNOWN_LOOPHOLES].sort());
  });
});
