// @mcpkit/skills/node: skills read from a folder on disk (node:fs), for `SkillsServer`.

export { type ReadSkillsDirectoryOptions, readSkillsDirectory } from './read-skills-directory';
