// @mcpkit/skills/client: the skills extension for a client, `client.extend(skills())` (it returns the `SkillsClient`,
// whose types are on the root entry).

export { skills } from './skills-client';
