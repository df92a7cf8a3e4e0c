import { fileURLToPath } from 'node:url';
import type { McpServer } from '@mcpkit/server';
import { SkillsServer } from '@mcpkit/skills';
import { readSkillsDirectory } from '@mcpkit/skills/node';

// The skills the suite's `sep-2640-skills-*` scenarios enumerate (the extension io.modelcontextprotocol/skills,
// SEP-2640), read from skills/ beside this folder and served by @mcpkit/skills on the server's extension seam. What
// those scenarios judge — the declaration (directoryRead), skills/list, skills/get, resources/directory/read, the
// SKILL.md resources — is SkillsServer's own behaviour; the folder only gives it something to serve. Each skill has a
// subfolder, so the first one listed shows an `inode/directory` child.

const SKILLS_FOLDER = fileURLToPath(new URL('../skills', import.meta.url));

/** Serves the skills of skills/ on `server`; resolves once their digests are taken. */
export async function registerSkillsScenarios(server: McpServer): Promise<SkillsServer> {
  const skills = new SkillsServer(server, { skills: await readSkillsDirectory(SKILLS_FOLDER) });
  await skills.ready;
  return skills;
}
