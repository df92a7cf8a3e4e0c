// @mcpkit/skills: the skills extension io.modelcontextprotocol/skills (SEP-2640) on the server (`SkillsServer`:
// skills/list, skills/get, resources/directory/read, skill:// resources) and the client (`SkillsClient`: listing,
// loading on demand with digest, size and frontmatter verification). Runs anywhere (WebCrypto digests); reading
// skills from disk is on the `/node` subpath.

export { sha256Digest } from './bytes';
export { LoadedSkill } from './client/loaded-skill';
export { checkSkillEntry } from './client/skill-entry';
export { type SkillPage, SkillsClient, type SkillsClientOptions } from './client/skills-client';
export type { SkillFile } from './client/verified-read';
export { type ParsedSkillMarkdown, parseSkillMarkdown } from './frontmatter';
export type { SkillDefinition, SkillFileContent } from './server/skill-definition';
export { SkillsServer, type SkillsServerOptions } from './server/skills-server';
export { SkillsError } from './skills-error';
export {
  DIRECTORY_MIME_TYPE,
  type GetSkillResult,
  type ListSkillsResult,
  type ReadResourceDirectoryResult,
  SKILL_LIMITS,
  SKILLS_EXTENSION_ID,
  type Skill,
  type SkillFrontmatter,
  type SkillResource,
} from './types';
