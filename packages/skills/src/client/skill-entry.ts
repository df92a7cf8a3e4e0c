import { isJsonObject as isPlainObject } from '@mcpkit/jsonrpc-core';
import { SkillsError } from '../skills-error';
import { SKILL_LIMITS, type Skill, type SkillResource } from '../types';

// A host must not load an entry that breaks SEP-2640's rules, whatever the server sent: checked before anything of the
// skill is read, so a bad entry costs no request.

const DIGEST = /^sha256:[0-9a-f]{64}$/;

function refuse(uri: unknown, problem: string, data: Record<string, unknown> = {}): SkillsError {
  return new SkillsError('ERR_INVALID_ENTRY', `The skill entry ${String(uri)} cannot be loaded: ${problem}`, {
    uri,
    ...data,
  });
}

/** The skill's root directory: its SKILL.md URI without `/SKILL.md`. */
export function skillRoot(uri: string): string {
  return uri.slice(0, -'/SKILL.md'.length);
}

/**
 * Checks a skill entry from `skills/list` or `skills/get` and returns it typed: `uri` names a SKILL.md whose last path
 * segment is `frontmatter.name`; `frontmatter` has a `name` and a `description`; `resources` is `'dynamic'` or a
 * complete list of `{uri, digest, size}` (SKILL.md included, each file once, all inside the skill's directory) within
 * `SKILL_LIMITS`. Throws `SkillsError` `ERR_INVALID_ENTRY` naming the first problem.
 *
 * @example
 * ```ts
 * const skill = checkSkillEntry(result.skill); // typed `Skill`, or throws
 * ```
 */
export function checkSkillEntry(entry: unknown): Skill {
  if (!isPlainObject(entry)) throw refuse(undefined, 'it is not an object');
  const { uri, frontmatter, resources } = entry;
  if (typeof uri !== 'string' || !uri.endsWith('/SKILL.md') || !uri.includes('://')) {
    throw refuse(uri, 'its uri is not the URI of a SKILL.md');
  }
  if (!isPlainObject(frontmatter)) throw refuse(uri, 'it has no frontmatter object');
  const { name, description } = frontmatter;
  if (typeof name !== 'string' || name === '' || typeof description !== 'string' || description === '') {
    throw refuse(uri, 'its frontmatter lacks a name or a description');
  }
  const segments = skillRoot(uri)
    .slice(uri.indexOf('://') + 3)
    .split('/');
  if (segments.at(-1) !== name) {
    throw refuse(uri, `the last segment of its path is not its name '${name}'`, { name });
  }
  if (resources === 'dynamic') return entry as unknown as Skill;
  if (!Array.isArray(resources)) throw refuse(uri, "its resources are neither a list nor 'dynamic'");
  const root = `${skillRoot(uri)}/`;
  const seen = new Set<string>();
  let total = 0;
  for (const resource of resources as unknown[]) {
    if (!isPlainObject(resource) || typeof resource.uri !== 'string') throw refuse(uri, 'a resource has no uri');
    const file = resource as unknown as SkillResource;
    if (typeof file.digest !== 'string' || !DIGEST.test(file.digest)) {
      throw refuse(uri, `${file.uri} has no digest of the form sha256:<64 lowercase hex digits>`);
    }
    if (!Number.isSafeInteger(file.size) || file.size < 0) throw refuse(uri, `${file.uri} has no byte size`);
    if (file.uri !== uri && !file.uri.startsWith(root)) throw refuse(uri, `${file.uri} is outside the skill`);
    if (seen.has(file.uri)) throw refuse(uri, `${file.uri} is listed twice`);
    seen.add(file.uri);
    total += file.size;
  }
  if (!seen.has(uri)) throw refuse(uri, 'its resources do not list its SKILL.md');
  if (seen.size > SKILL_LIMITS.maxResources || total > SKILL_LIMITS.maxTotalBytes) {
    throw refuse(
      uri,
      `it has ${seen.size} files of ${total} bytes in all, beyond the limits of ${SKILL_LIMITS.maxResources} files and ${SKILL_LIMITS.maxTotalBytes} bytes`,
      { files: seen.size, bytes: total, limits: SKILL_LIMITS },
    );
  }
  return entry as unknown as Skill;
}
