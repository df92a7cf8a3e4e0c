// The wire vocabulary of the skills extension (SEP-2640, `io.modelcontextprotocol/skills`): what `skills/list`,
// `skills/get` and `resources/directory/read` carry. No official JSON Schema exists for them; these follow the
// extension's specification page (specification/stable/skills.mdx of modelcontextprotocol/ext-skills).

import type { Resource } from '@mcpkit/protocol';

/** The extension identifier, the key of `capabilities.extensions`. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/** The `mimeType` of a directory resource (`resources/directory/read` lists subdirectories with it). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** The per-skill limits every host supports (SEP-2640 "Limits"): servers should serve nothing larger. */
export const SKILL_LIMITS = Object.freeze({
  /** Entries in a skill's `resources`, SKILL.md included. */
  maxResources: 512,
  /** The sum of `size` over a skill's `resources`: 16 MiB. */
  maxTotalBytes: 16 * 1024 * 1024,
});

/** The SKILL.md YAML frontmatter, rendered verbatim as JSON: `name` and `description` always, the rest as written. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [field: string]: unknown;
}

/** One file of a skill, with the digest and size of its raw bytes. */
export interface SkillResource {
  /** The file's resource URI. */
  uri: string;
  /** `sha256:` and 64 lowercase hex digits: the SHA-256 of the file's raw bytes. */
  digest: string;
  /** The file's length in bytes (the bytes `digest` covers). */
  size: number;
}

/** The entry of one skill, the same in `skills/list` and `skills/get`. */
export interface Skill {
  /** The URI of the skill's SKILL.md (`skill://<skill-path>/SKILL.md`), readable with `resources/read`. */
  uri: string;
  frontmatter: SkillFrontmatter;
  /** Every file of the skill, SKILL.md included, or `'dynamic'` for generated content with no stable digests. */
  resources: SkillResource[] | 'dynamic';
}

/** The result of `skills/list`: one page of entries. */
export interface ListSkillsResult {
  skills: Skill[];
  nextCursor?: string;
  /** 2026-07-28: how long the listing may be reused, in ms. */
  ttlMs?: number;
  /** 2026-07-28: who may reuse it. */
  cacheScope?: 'public' | 'private';
}

/** The result of `skills/get`. */
export interface GetSkillResult {
  skill: Skill;
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

/** The result of `resources/directory/read`: one page of a directory's direct children. */
export interface ReadResourceDirectoryResult {
  /** Files with their resource metadata; subdirectories with `mimeType: 'inode/directory'`. */
  resources: Resource[];
  nextCursor?: string;
}
