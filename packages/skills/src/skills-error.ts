import { defineCodedError } from '@mcpkit/jsonrpc-core';

/**
 * Thrown by `SkillsServer` (a skill it cannot serve), `SkillsClient` and `LoadedSkill` (a server without the extension,
 * an entry or a file that fails verification), and `readSkillsDirectory`. The verification codes are SEP-2640's
 * "verification failure": the content must not be used; refresh the entry with `skills/get` and load again.
 */
export class SkillsError extends defineCodedError<
  /** A skill definition the server cannot serve: no SKILL.md, bad frontmatter, a name or path against the rules. */
  | 'ERR_INVALID_SKILL'
  /** The server does not declare the extension (or, for directory reads, `directoryRead: true`). */
  | 'ERR_NOT_SUPPORTED'
  /** The server answered with something that is not what the method returns. */
  | 'ERR_INVALID_RESULT'
  /** A skill entry a host must not load: malformed, or beyond the limits of `SKILL_LIMITS`. */
  | 'ERR_INVALID_ENTRY'
  /** The entry's `resources` is `'dynamic'` (no digests to verify) and the load did not allow it. */
  | 'ERR_DYNAMIC_SKILL'
  /** Verification failure: the file's byte length is not the entry's `size`. */
  | 'ERR_SIZE_MISMATCH'
  /** Verification failure: the file's SHA-256 is not the entry's `digest`. */
  | 'ERR_DIGEST_MISMATCH'
  /** Verification failure: SKILL.md's frontmatter differs from the entry's `frontmatter`, or cannot be parsed. */
  | 'ERR_FRONTMATTER_MISMATCH'
  /** Verification failure: a file the held entry does not list (the skill changed since it was listed). */
  | 'ERR_UNLISTED_FILE'
  /** `listAll` met more pages than `maxPages`, or a cursor the server had already given. */
  | 'ERR_TOO_MANY_PAGES'
>('SkillsError', '@mcpkit/skills/SkillsError') {}
