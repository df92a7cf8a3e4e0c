// What a server author gives `SkillsServer`: skills as plain data (in memory, or read from disk by
// `readSkillsDirectory` of `@mcpkit/skills/node`), checked and turned into files with URIs before digests are taken.

import { textOf, utf8Bytes } from '../bytes';
import { parseSkillMarkdown, SKILL_NAME } from '../frontmatter';
import { mimeTypeOf } from '../mime-types';
import { SkillsError } from '../skills-error';
import type { SkillFrontmatter } from '../types';

/** One file's content: text (served as UTF-8), bytes, or either with its media type. */
export type SkillFileContent = string | Uint8Array | { content: string | Uint8Array; mimeType?: string };

/**
 * A skill: a directory of files with a `SKILL.md` at its root (Agent Skills specification).
 *
 * @example
 * ```ts
 * const refunds: SkillDefinition = {
 *   path: 'acme/billing/refunds', // served at skill://acme/billing/refunds/SKILL.md
 *   files: {
 *     'SKILL.md': '---\nname: refunds\ndescription: Process refund requests per policy\n---\n\nSee examples/email.md.\n',
 *     'examples/email.md': 'Dear customer, …\n',
 *   },
 * };
 * ```
 */
export interface SkillDefinition {
  /**
   * Where the skill sits in the server's skill namespace: `/`-separated segments whose last one is the frontmatter
   * `name` (`git-workflow`, `acme/billing/refunds`). Default: the frontmatter `name`.
   */
  path?: string;
  /** Its files by path relative to the skill's root (`SKILL.md`, `references/FORMS.md`), `/` as the separator. */
  files: Readonly<Record<string, SkillFileContent>>;
}

/** A file of a checked skill, before its digest is taken. */
export interface PreparedFile {
  uri: string;
  /** The last segment of its path (the resource `name`). */
  name: string;
  mimeType: string;
  bytes: Uint8Array;
  /** Set when it is served as `text` (valid UTF-8), else it is served as a base64 `blob`. */
  text?: string;
}

/** A checked skill: its path and URIs, its frontmatter, and its own files (those of nested skills come later). */
export interface PreparedSkill {
  path: string;
  uri: string;
  frontmatter: SkillFrontmatter;
  files: Map<string, PreparedFile>;
}

/** A segment of a skill path: unreserved URI characters only, so it is a valid reg-name and path segment as it is. */
const PATH_SEGMENT = /^[A-Za-z0-9._~-]+$/;
/** A character no file path segment may hold: separators other than `/`, and control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const BAD_FILE_CHARACTER = /[\\\u0000-\u001f\u007f]/;

function invalid(message: string, data: Record<string, unknown>): SkillsError {
  return new SkillsError('ERR_INVALID_SKILL', message, data);
}

/** The segments of a relative path, refused when one is empty, `.`, `..` or holds a forbidden character. */
function fileSegments(relative: string, where: string): string[] {
  const segments = relative.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || BAD_FILE_CHARACTER.test(segment)) {
      throw invalid(
        `${where}: the file path '${relative}' is not a relative path of plain segments (no empty, '.' or '..' segment, no backslash or control character)`,
        { path: relative },
      );
    }
  }
  return segments;
}

function prepareFile(uri: string, name: string, content: SkillFileContent): PreparedFile {
  const value = typeof content === 'string' || content instanceof Uint8Array ? content : content.content;
  const declared = typeof content === 'string' || content instanceof Uint8Array ? undefined : content.mimeType;
  const bytes = typeof value === 'string' ? utf8Bytes(value) : value;
  const text = typeof value === 'string' ? value : textOf(bytes);
  const mimeType = declared ?? mimeTypeOf(name) ?? (text === undefined ? 'application/octet-stream' : 'text/plain');
  return text === undefined ? { uri, name, mimeType, bytes } : { uri, name, mimeType, bytes, text };
}

/**
 * Checks one definition and gives its files URIs: SKILL.md present with valid frontmatter, the path's last segment
 * equal to the name, every segment and file path well formed. Throws `SkillsError` `ERR_INVALID_SKILL` naming the
 * problem.
 */
export function prepareSkill(definition: SkillDefinition): PreparedSkill {
  const files = definition?.files;
  const label = typeof definition?.path === 'string' ? `skill '${definition.path}'` : 'a skill';
  if (typeof files !== 'object' || files === null) throw invalid(`${label}: \`files\` must be an object`, {});
  const manifest = files['SKILL.md'];
  if (manifest === undefined) throw invalid(`${label}: every skill needs a SKILL.md at its root`, {});
  const manifestFile = prepareFile('', 'SKILL.md', manifest);
  if (manifestFile.text === undefined) throw invalid(`${label}: its SKILL.md is not UTF-8 text`, {});
  const parsed = parseSkillMarkdown(manifestFile.text);
  if (!parsed.ok) throw invalid(`${label}: its SKILL.md is not a skill manifest: ${parsed.reason}`, {});
  const name = parsed.frontmatter.name;
  if (!SKILL_NAME.test(name)) {
    throw invalid(
      `${label}: the name '${name}' breaks the Agent Skills naming rules (1-64 characters: a-z, 0-9 and '-', no leading, trailing or double '-')`,
      { name },
    );
  }
  const path = definition.path ?? name;
  const segments = path.split('/');
  if (!segments.every((segment) => PATH_SEGMENT.test(segment) && segment !== '.' && segment !== '..')) {
    throw invalid(
      `skill '${path}': each segment of a skill path must be one or more of A-Z, a-z, 0-9, '.', '_', '~' and '-'`,
      { path },
    );
  }
  if (segments.at(-1) !== name) {
    throw invalid(`skill '${path}': the last segment of its path must be its name '${name}' (SEP-2640)`, {
      path,
      name,
    });
  }
  const root = `skill://${path}`;
  const prepared = new Map<string, PreparedFile>();
  for (const [relative, content] of Object.entries(files)) {
    const fileNames = fileSegments(relative, `skill '${path}'`);
    const uri = `${root}/${fileNames.map(encodeURIComponent).join('/')}`;
    const file = relative === 'SKILL.md' ? { ...manifestFile, uri } : prepareFile(uri, fileNames.at(-1)!, content);
    prepared.set(uri, file);
  }
  return { path, uri: `${root}/SKILL.md`, frontmatter: parsed.frontmatter, files: prepared };
}
