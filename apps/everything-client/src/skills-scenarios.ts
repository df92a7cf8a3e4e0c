import type { Client } from '@mcpkit/client';
import { SkillsClient, SkillsError } from '@mcpkit/skills';
import { withClient } from './connection';

// The client scenarios of the skills extension (io.modelcontextprotocol/skills, SEP-2640), each what a host does with
// @mcpkit/skills' SkillsClient: list the server's skills and fetch nothing more (a host builds its registry from the
// entries alone), or load a skill — its SKILL.md verified against the entry's digest, size and frontmatter — and read
// the files it lists, each verified. The suite's mock serves a tampered SKILL.md in the verify-* scenarios: the load
// refuses it, so no supporting file is read.

type Scenario = (url: URL) => Promise<void>;

/** Before connecting: the client declares the extension. */
const declareSkills = (client: Client) => new SkillsClient(client);

/** What `SkillsClient.load` refuses a tampered SKILL.md with. */
const VERIFICATION_FAILURES = new Set(['ERR_DIGEST_MISMATCH', 'ERR_SIZE_MISMATCH', 'ERR_FRONTMATTER_MISMATCH']);

/** Lists the skills, as a host does to show them to the user and the model; reads no skill file. */
const listOnly: Scenario = (url) =>
  withClient(
    url,
    async (_client, skills) => {
      if (!skills.available) throw new Error('the server does not declare io.modelcontextprotocol/skills');
      for (const skill of await skills.listAll()) console.log(skill.uri, skill.frontmatter.description);
    },
    { setup: declareSkills },
  );

/** Lists, loads the first skill, then reads every file it lists (the model asking for them), each verified. */
const loadAndRead: Scenario = (url) =>
  withClient(
    url,
    async (_client, skills) => {
      const [entry] = await skills.listAll();
      if (entry === undefined) throw new Error('skills/list returned no skill to load');
      let skill: Awaited<ReturnType<typeof skills.load>>;
      try {
        skill = await skills.load(entry);
      } catch (error) {
        if (SkillsError.is(error) && VERIFICATION_FAILURES.has(error.code)) {
          console.log(`refused ${entry.uri}: ${error.message}`);
          return;
        }
        throw error;
      }
      console.log(`loaded ${skill.uri}`);
      for (const file of skill.files === 'dynamic' ? [] : skill.files) {
        if (file.uri !== skill.uri) console.log(`read ${(await skill.readFile(file.uri)).uri}`);
      }
    },
    { setup: declareSkills },
  );

export const skillsScenarios: Readonly<Record<string, Scenario>> = {
  'sep-2640-client-no-prefetch': listOnly,
  'sep-2640-client-verify-digest': loadAndRead,
  'sep-2640-client-verify-size': loadAndRead,
  'sep-2640-client-verify-frontmatter': loadAndRead,
};
