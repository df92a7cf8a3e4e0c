import { isJsonObject as isPlainObject } from '@mcpkit/jsonrpc-core';
import { parse } from 'yaml';
import type { SkillFrontmatter } from './types';

// SKILL.md starts with a YAML block between two `---` lines (Agent Skills specification). Both sides read it the same
// way: the server renders it as the entry's `frontmatter`, the client compares it with the entry after a read.

/** The leading frontmatter block: an optional BOM, `---`, the YAML, `---` on a line of its own. */
const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The longest `description` the Agent Skills specification allows. */
const MAX_DESCRIPTION_LENGTH = 1024;

/** A skill name by the Agent Skills rules: 1–64 of `a-z`, `0-9` and `-`, no leading, trailing or double hyphen. */
export const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** What `parseSkillMarkdown` found: the frontmatter and the body after it, or why there is none. */
export type ParsedSkillMarkdown =
  | { ok: true; frontmatter: SkillFrontmatter; body: string }
  | { ok: false; reason: string };

/**
 * Reads a SKILL.md: its YAML frontmatter as a JSON object (`name` and `description` checked, every other field as
 * written) and the Markdown body after it. YAML 1.2 core schema, so dates and versions stay strings; values JSON
 * cannot carry (`.inf`, `.nan`) and duplicate keys are refused.
 *
 * @example
 * ```ts
 * const parsed = parseSkillMarkdown('---\nname: git-workflow\ndescription: Our Git conventions\n---\n# Steps\n');
 * if (parsed.ok) console.log(parsed.frontmatter.name, parsed.body); // git-workflow # Steps
 * ```
 */
export function parseSkillMarkdown(text: string): ParsedSkillMarkdown {
  const match = FRONTMATTER.exec(text);
  if (match === null) return { ok: false, reason: 'it does not begin with a YAML frontmatter block between --- lines' };
  let value: unknown;
  try {
    // `maxAliasCount` bounds alias expansion (a "billion laughs" document); `uniqueKeys` refuses a key given twice.
    value = parse(match[1] ?? '', { schema: 'core', uniqueKeys: true, maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    return { ok: false, reason: `its frontmatter is not valid YAML (${(error as Error).message})` };
  }
  if (!isPlainObject(value)) return { ok: false, reason: 'its frontmatter is not a YAML mapping' };
  const notJson = firstNonJson(value, 'frontmatter');
  if (notJson !== undefined) return { ok: false, reason: `its ${notJson} has no JSON form` };
  const { name, description } = value;
  if (typeof name !== 'string' || name === '') return { ok: false, reason: 'its frontmatter has no name' };
  if (typeof description !== 'string' || description === '') {
    return { ok: false, reason: 'its frontmatter has no description' };
  }
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    return { ok: false, reason: `its description is longer than ${MAX_DESCRIPTION_LENGTH} characters` };
  }
  return { ok: true, frontmatter: value as SkillFrontmatter, body: text.slice(match[0].length) };
}

/** True when two JSON values are equal: the same primitives, arrays item by item, objects key by key (any order). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

/** The path of the first value in `value` that JSON cannot carry (a non-finite number), if any. */
function firstNonJson(value: unknown, path: string): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstNonJson(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const found = firstNonJson(item, `${path}.${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
