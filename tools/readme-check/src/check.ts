// Checks every code block of every README of the repository (see blocks.ts for what an info string may say):
// TypeScript and JavaScript compile against the built packages (what a user installs, not our sources), blocks marked
// `run` run and print what their `output` block says, JSON parses, shell runs as written on a fresh clone (shell.ts).
// Every problem names the README, the block, its line and why.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { type CodeBlock, codeBlocks, describeBlock, LANGUAGES } from './blocks';
import { checkShell } from './shell';

/** Where the checker works: the repository, and a scratch folder inside this tool (so imports resolve from it). */
export interface CheckOptions {
  root: string;
  /** Scratch folder; must sit under tools/readme-check so `@mcpkit/*`, zod, express … resolve from its node_modules. */
  workDir: string;
  /** Time limit of one `run` block. Default 60 s. */
  runTimeoutMs?: number;
  /** Check only these Markdown files (relative to `root`). Default: every README of the repository. */
  readmes?: readonly string[];
}

/** What the check found. */
export interface CheckReport {
  blocks: CodeBlock[];
  /** Problems by block (`readme#index`); a block with none is absent. */
  problems: Map<string, string[]>;
  compiled: number;
  ran: number;
}

/** The key of a block in `CheckReport.problems`. */
export const keyOf = (block: CodeBlock) => `${block.readme}#${block.index}`;

const KNOWN_FLAGS = new Set(['run', 'sketch', 'output']);
// Diagnostics a `sketch` block may have: names it uses without declaring them (placeholders, a runtime's globals such
// as `Bun` or `Deno`), and the implicit `any`
// of callback parameters that placeholders cause.
const SKETCH_ALLOWED = new Set([2304, 2552, 2867, 2868, 18004, 7006, 7031]);

/** Every tracked (or new, not ignored) README.md of the repository, but test fixtures. */
export function readmesOf(root: string): string[] {
  const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '--', '*README.md', 'README.md'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${root}: ${listed.stderr}`);
  return [...new Set(listed.stdout.split('\n'))]
    .filter((file) => file.endsWith('README.md') && !file.includes('/fixtures/') && !file.includes('node_modules/'))
    .sort();
}

/** The blocks of every README. */
export function allBlocks(root: string, readmes: readonly string[] = readmesOf(root)): CodeBlock[] {
  return readmes.flatMap((readme) => codeBlocks(readme, readFileSync(join(root, readme), 'utf8')));
}

/** Runs every check; never throws for a problem in a README (it is reported), only when it cannot check at all. */
export function checkReadmes(options: CheckOptions): CheckReport {
  const blocks = allBlocks(options.root, options.readmes);
  const problems = new Map<string, string[]>();
  const report = (block: CodeBlock, message: string) => {
    const key = keyOf(block);
    problems.set(key, [...(problems.get(key) ?? []), message]);
  };
  checkInfoStrings(blocks, report);
  for (const block of blocks) {
    if (block.language === 'json') checkJson(block, report);
    if (block.language === 'sh') checkShell(block, options.root, report);
  }
  rmSync(options.workDir, { recursive: true, force: true });
  const compiled = compileBlocks(blocks, options.workDir, report);
  const ran = runBlocks(blocks, options, problems, report);
  return { blocks, problems, compiled, ran };
}

function checkInfoStrings(blocks: CodeBlock[], report: (block: CodeBlock, message: string) => void): void {
  const files = new Map<string, CodeBlock>();
  blocks.forEach((block, position) => {
    if (block.language === '') {
      report(block, `has no language: write \`\`\`ts, \`\`\`sh, \`\`\`json or \`\`\`text after the fence`);
      return;
    }
    if (!(LANGUAGES as readonly string[]).includes(block.language)) {
      report(block, `language "${block.language}" is not one the checker knows (${LANGUAGES.join(', ')})`);
    }
    for (const flag of block.flags) {
      if (!KNOWN_FLAGS.has(flag) && !flag.startsWith('file=')) {
        report(block, `unknown flag "${flag}" (known: run, sketch, output, file=<name>)`);
      }
    }
    const code = block.language === 'ts' || block.language === 'js';
    if (!code && (block.flags.has('run') || block.flags.has('sketch') || block.file !== undefined)) {
      report(block, '`run`, `sketch` and `file=` are for ts and js blocks');
    }
    if (block.flags.has('output')) {
      const previous = blocks[position - 1];
      if (block.language !== 'text' || previous?.readme !== block.readme || !previous.flags.has('run')) {
        report(block, '`output` goes on a ```text block right after a `run` block');
      }
    }
    if (block.file !== undefined) {
      const other = files.get(block.file);
      if (other !== undefined) {
        report(block, `file=${block.file} is already ${describeBlock(other)}; give one of them another name`);
      }
      files.set(block.file, block);
    }
  });
}

function checkJson(block: CodeBlock, report: (block: CodeBlock, message: string) => void): void {
  try {
    JSON.parse(block.code);
  } catch (error) {
    report(block, `is not valid JSON: ${(error as Error).message}`);
  }
}

/** Writes the ts/js blocks as modules and type-checks them in one program; returns how many were compiled. */
function compileBlocks(
  blocks: CodeBlock[],
  workDir: string,
  report: (block: CodeBlock, message: string) => void,
): number {
  const byFile = new Map<string, CodeBlock>();
  for (const block of blocks) {
    if (block.language !== 'ts' && block.language !== 'js') continue;
    const slug = block.readme.replace(/\/?README\.md$/, '').replace(/[^\w-]+/g, '_') || 'root';
    const file = join(workDir, 'compile', slug, `block-${block.index}.${block.language === 'js' ? 'mjs' : 'ts'}`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, block.code);
    byFile.set(file, block);
  }
  const toolRoot = join(workDir, '..');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    moduleDetection: ts.ModuleDetectionKind.Force,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    typeRoots: [join(toolRoot, 'node_modules', '@types'), join(toolRoot, '..', '..', 'node_modules', '@types')],
    skipLibCheck: true,
    esModuleInterop: true,
    allowJs: true,
    checkJs: true,
  };
  const program = ts.createProgram([...byFile.keys()], options);
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const block = diagnostic.file === undefined ? undefined : byFile.get(diagnostic.file.fileName);
    if (block === undefined) {
      // Not in a block (a broken declaration file, a missing build): every block depends on it.
      const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      throw new Error(`TypeScript could not check the README blocks: ${text}`);
    }
    if (block.flags.has('sketch') && SKETCH_ALLOWED.has(diagnostic.code)) continue;
    const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    report(block, `${block.readme}:${block.line + 1 + line}: ${text} (TS${diagnostic.code})`);
  }
  return byFile.size;
}

/** Runs the `run` blocks with tsx next to every `file=` block; returns how many ran. */
function runBlocks(
  blocks: CodeBlock[],
  options: CheckOptions,
  problems: Map<string, string[]>,
  report: (block: CodeBlock, message: string) => void,
): number {
  const runDir = join(options.workDir, 'run');
  mkdirSync(runDir, { recursive: true });
  for (const block of blocks) if (block.file !== undefined) writeFileSync(join(runDir, block.file), block.code);
  // tsx's CLI on the Node running this check, so the Node matrix runs the examples on each line.
  const tsx = join(options.workDir, '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
  let ran = 0;
  blocks.forEach((block, position) => {
    if (!block.flags.has('run')) return;
    if (problems.has(keyOf(block))) {
      report(block, 'was not run: fix the problems above first');
      return;
    }
    const file = join(runDir, `run-${keyOf(block).replace(/[^\w-]+/g, '_')}.${block.language === 'js' ? 'mjs' : 'ts'}`);
    writeFileSync(file, block.code);
    ran++;
    const timeout = options.runTimeoutMs ?? 60_000;
    const result = spawnSync(process.execPath, [tsx, relative(runDir, file)], {
      cwd: runDir,
      encoding: 'utf8',
      timeout,
    });
    if (result.error !== undefined || result.status !== 0) {
      const why =
        result.error?.message ??
        (result.signal ? `killed by ${result.signal} after ${timeout} ms` : `exit ${result.status}`);
      report(
        block,
        `failed when run (${why}):\n${(result.stderr || result.stdout).trim().split('\n').slice(-15).join('\n')}`,
      );
      return;
    }
    const expected = blocks[position + 1];
    if (expected?.readme === block.readme && expected.flags.has('output') && result.stdout !== expected.code) {
      report(
        expected,
        `is not what block ${block.index} prints.\n--- the README says\n${expected.code}--- it printed\n${result.stdout}`,
      );
    }
  });
  return ran;
}
