// Reads the fenced code blocks of a Markdown file, with what their info string says about them.
//
// The info string is the language, then flags:
//   ```ts                    compiled (strict) against the built packages, as its own module
//   ```ts sketch             compiled, but names it does not declare are allowed (API overviews with placeholders)
//   ```ts run                compiled, then run with tsx; it must exit 0 within its time limit
//   ```ts file=server.ts     also written as server.ts next to the blocks that run, so they can start or import it
//   ```text output           what the `run` block just before it prints on stdout, exactly
//   ```sh / ```json / ```text / ```http / ```diff   shell checked with `bash -n` (and `npm run <script>` exists),
//                            JSON parsed, the others shown as they are

/** A language the checker knows; a block with no language, or another one, is a problem to fix. */
export const LANGUAGES = ['ts', 'js', 'sh', 'json', 'text', 'http', 'diff', 'toml'] as const;
export type Language = (typeof LANGUAGES)[number];

/** One fenced code block. */
export interface CodeBlock {
  /** The Markdown file, relative to the repository root (`packages/server/README.md`). */
  readme: string;
  /** 1-based position among the file's blocks. */
  index: number;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string as written (`ts run file=client.ts`). */
  info: string;
  /** The language (first word of the info string), `''` when there is none. */
  language: string;
  /** Flags after the language (`run`, `sketch`, `output`, `file=…`). */
  flags: ReadonlySet<string>;
  /** `file=` flag: the name this block is written under for other blocks. */
  file: string | undefined;
  /** The content, without the fence lines and without the indentation of the fence. */
  code: string;
  /** The nearest heading above the block, for messages. */
  heading: string;
}

/** `packages/server/README.md block 3 (line 120, ```ts run)` — how a message names a block. */
export function describeBlock(block: CodeBlock): string {
  return `${block.readme} block ${block.index} (line ${block.line}, \`\`\`${block.info}${block.heading ? `, under "${block.heading}"` : ''})`;
}

/**
 * The fenced blocks of `markdown` (``` or ~~~ fences, possibly indented inside a list; a closing fence must use the
 * same character and be at least as long).
 *
 * @example
 * const [block] = codeBlocks('README.md', '# Hi\n\n```ts run\nconsole.log(1);\n```\n');
 * // block.language === 'ts', block.flags.has('run'), block.line === 3
 */
export function codeBlocks(readme: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let heading = '';
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at]!;
    const title = /^#{1,6}\s+(.*)$/.exec(line);
    if (title) heading = title[1]!.trim();
    const open = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(line);
    if (open === null) continue;
    const [, indent = '', fence = '', info = ''] = open;
    // CommonMark: the info string of a backtick fence has no backtick (such a line is inline code, not a fence).
    if (fence.startsWith('`') && info.includes('`')) continue;
    const body: string[] = [];
    let end = at + 1;
    for (; end < lines.length; end++) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[end]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      const text = lines[end]!;
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart());
    }
    const [language = '', ...rest] = info.trim().split(/\s+/).filter(Boolean);
    const file = rest.find((flag) => flag.startsWith('file='))?.slice('file='.length);
    blocks.push({
      readme,
      index: blocks.length + 1,
      line: at + 1,
      info: info.trim(),
      language,
      flags: new Set(rest),
      file,
      code: `${body.join('\n')}\n`,
      heading,
    });
    at = end;
  }
  return blocks;
}
