// @mcpkit/skills/server: the skills extension for a server, `mcpServer.extend(skills({ skills }))` (it returns the
// `SkillsServer`, whose types are on the root entry).

export { skills } from './skills-server';
