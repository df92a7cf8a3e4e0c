import type { CallOptions, Client, ClientExtension } from '@mcpkit/client';
import { isJsonObject as isPlainObject } from '@mcpkit/jsonrpc-core';
import { parseSkillMarkdown, sameJson } from '../frontmatter';
import { SkillsError } from '../skills-error';
import { type ReadResourceDirectoryResult, SKILLS_EXTENSION_ID, type Skill } from '../types';
import { LoadedSkill } from './loaded-skill';
import { checkSkillEntry } from './skill-entry';
import { readVerified } from './verified-read';

/** Options of `SkillsClient`. */
export interface SkillsClientOptions {
  /**
   * Load skills whose `resources` is `'dynamic'`: generated content with no digests, so nothing but the frontmatter
   * can be verified (SEP-2640 lets hosts decline them). Default `false`: `load` refuses them with `ERR_DYNAMIC_SKILL`.
   */
  allowDynamic?: boolean;
  /** The most `skills/list` pages `listAll` reads before it gives up with `ERR_TOO_MANY_PAGES`. Default 100. */
  maxPages?: number;
}

/** One page of `skills/list`. */
export interface SkillPage {
  skills: Skill[];
  nextCursor?: string;
}

let adopting = false;

/**
 * The skills extension for `client.extend` (before `connect`): returns the `SkillsClient` it installs.
 *
 * @example
 * ```ts
 * const skillsClient = client.extend(skills());
 * await client.connect(transport);
 * if (skillsClient.available) console.log(await skillsClient.listAll());
 * ```
 */
export function skills(options: SkillsClientOptions = {}): ClientExtension<SkillsClient, Client> {
  return {
    id: SKILLS_EXTENSION_ID,
    install: ({ client }) => {
      adopting = true;
      try {
        return new SkillsClient(client, options);
      } finally {
        adopting = false;
      }
    },
  };
}

/**
 * The client side of the skills extension `io.modelcontextprotocol/skills` (SEP-2640), on the client's extension seam
 * (`client.extend`, `client.request`, `client.readResource`): lists skills, and loads one only when asked — its
 * SKILL.md read then, checked against the entry's size, digest and frontmatter; its other files read one at a time,
 * each verified. Nothing of a skill is fetched on connection or on listing.
 *
 * @example
 * ```ts
 * const skills = new SkillsClient(client); // before connect: it declares the extension
 * await client.connect(transport);
 * if (skills.available) {
 *   const entries = await skills.listAll();
 *   const skill = await skills.load(entries[0]!); // SkillsError when it fails verification
 *   console.log(skill.body);
 * }
 * ```
 */
export class SkillsClient {
  readonly #client: Client;
  readonly #allowDynamic: boolean;
  readonly #maxPages: number;

  constructor(client: Client, options: SkillsClientOptions = {}) {
    this.#client = client;
    this.#allowDynamic = options.allowDynamic ?? false;
    this.#maxPages = options.maxPages ?? 100;
    // Constructed by `skills()`'s install, the extension is being installed already; constructed directly (the older
    // shape), it declares itself the same way, through the public `extend`.
    if (adopting) adopting = false;
    else client.extend({ id: SKILLS_EXTENSION_ID });
  }

  /** Whether the connected server declares the extension (only then are its methods called). */
  get available(): boolean {
    return isPlainObject(this.#declaration());
  }

  /** Whether the server declares `directoryRead: true` (`readDirectory` needs it). */
  get directoryRead(): boolean {
    const declaration = this.#declaration();
    return isPlainObject(declaration) && declaration.directoryRead === true;
  }

  /**
   * One page of the server's skills (`skills/list`). Entries are returned as the server sent them; `load` checks the
   * one it loads. A listing may be empty or partial: `get` and `load` take a URI the listing did not show.
   */
  async list(params: { cursor?: string } = {}, options?: CallOptions): Promise<SkillPage> {
    this.#requireExtension('skills/list');
    const result = await this.#client.request(
      'skills/list',
      params.cursor === undefined ? {} : { cursor: params.cursor },
      options,
    );
    if (!Array.isArray(result.skills)) {
      throw new SkillsError('ERR_INVALID_RESULT', 'skills/list answered without a skills array', { result });
    }
    const page: SkillPage = { skills: result.skills as Skill[] };
    if (typeof result.nextCursor === 'string' && result.nextCursor !== '') page.nextCursor = result.nextCursor;
    return page;
  }

  /** Every page of `skills/list`, at most `maxPages`; a cursor given twice ends it with `ERR_TOO_MANY_PAGES`. */
  async listAll(options?: CallOptions): Promise<Skill[]> {
    const skills: Skill[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 0; pages < this.#maxPages; pages++) {
      const page = await this.list(cursor === undefined ? {} : { cursor }, options);
      skills.push(...page.skills);
      cursor = page.nextCursor;
      if (cursor === undefined) return skills;
      if (seen.has(cursor)) break;
      seen.add(cursor);
    }
    throw new SkillsError(
      'ERR_TOO_MANY_PAGES',
      `skills/list did not end within ${this.#maxPages} pages (or gave a cursor twice); raise maxPages if the catalog is that large`,
      { maxPages: this.#maxPages, skills: skills.length },
    );
  }

  /** The current entry of the skill whose SKILL.md is at `uri` (`skills/get`), checked. */
  async get(uri: string, options?: CallOptions): Promise<Skill> {
    this.#requireExtension('skills/get');
    const result = await this.#client.request('skills/get', { uri }, options);
    const skill = checkSkillEntry(result.skill);
    if (skill.uri !== uri) {
      throw new SkillsError('ERR_INVALID_RESULT', `skills/get for ${uri} answered with the entry of ${skill.uri}`, {
        uri,
        answered: skill.uri,
      });
    }
    return skill;
  }

  /**
   * Loads a skill: checks the entry (a URI is first looked up with `skills/get`), reads its SKILL.md, and verifies it —
   * byte size and SHA-256 against the entry's, then its frontmatter, field by field, against the entry's frontmatter.
   * Any mismatch throws `SkillsError` (`ERR_SIZE_MISMATCH`, `ERR_DIGEST_MISMATCH`, `ERR_FRONTMATTER_MISMATCH`) and the
   * content is not used. No other file is read.
   */
  async load(skill: Skill | string, options?: CallOptions): Promise<LoadedSkill> {
    const entry = typeof skill === 'string' ? await this.get(skill, options) : checkSkillEntry(skill);
    if (entry.resources === 'dynamic' && !this.#allowDynamic) {
      throw new SkillsError(
        'ERR_DYNAMIC_SKILL',
        `${entry.uri} is a dynamic skill: no digests to verify its content against (pass allowDynamic: true to load it anyway)`,
        { uri: entry.uri },
      );
    }
    const expected = entry.resources === 'dynamic' ? undefined : entry.resources.find((file) => file.uri === entry.uri);
    const file = await readVerified(this.#client, entry.uri, expected, options);
    const parsed = file.text === undefined ? undefined : parseSkillMarkdown(file.text);
    if (parsed === undefined || !parsed.ok) {
      throw new SkillsError(
        'ERR_FRONTMATTER_MISMATCH',
        `${entry.uri} cannot be loaded: ${parsed === undefined ? 'it is not UTF-8 text' : parsed.reason}`,
        { uri: entry.uri },
      );
    }
    const differing = [...new Set([...Object.keys(parsed.frontmatter), ...Object.keys(entry.frontmatter)])].filter(
      (key) => !sameJson(parsed.frontmatter[key], entry.frontmatter[key]),
    );
    if (differing.length > 0) {
      throw new SkillsError(
        'ERR_FRONTMATTER_MISMATCH',
        `${entry.uri} cannot be loaded: its frontmatter differs from its skill entry in ${differing.join(', ')}`,
        { uri: entry.uri, fields: differing },
      );
    }
    return new LoadedSkill(this.#client, entry, file.text!, parsed.frontmatter, parsed.body, file.bytes.length);
  }

  /**
   * One page of a directory's direct children (`resources/directory/read`): files with their resource metadata,
   * subdirectories with `mimeType: 'inode/directory'`. Needs the server's `directoryRead: true` (else
   * `ERR_NOT_SUPPORTED`, and nothing is sent). A directory read does not extend a loaded skill's entry.
   */
  async readDirectory(
    uri: string,
    params: { cursor?: string } = {},
    options?: CallOptions,
  ): Promise<ReadResourceDirectoryResult> {
    if (!this.directoryRead) {
      throw new SkillsError(
        'ERR_NOT_SUPPORTED',
        'The server does not declare directoryRead: true, so resources/directory/read must not be called',
        { method: 'resources/directory/read' },
      );
    }
    const result = await this.#client.request(
      'resources/directory/read',
      params.cursor === undefined ? { uri } : { uri, cursor: params.cursor },
      options,
    );
    if (!Array.isArray(result.resources)) {
      throw new SkillsError('ERR_INVALID_RESULT', 'resources/directory/read answered without a resources array', {
        uri,
        result,
      });
    }
    const page: ReadResourceDirectoryResult = {
      resources: result.resources as ReadResourceDirectoryResult['resources'],
    };
    if (typeof result.nextCursor === 'string' && result.nextCursor !== '') page.nextCursor = result.nextCursor;
    return page;
  }

  #declaration(): unknown {
    const extensions = (this.#client.serverCapabilities as { extensions?: Record<string, unknown> } | undefined)
      ?.extensions;
    return isPlainObject(extensions) ? extensions[SKILLS_EXTENSION_ID] : undefined;
  }

  #requireExtension(method: string): void {
    if (!this.available) {
      throw new SkillsError(
        'ERR_NOT_SUPPORTED',
        `The server does not declare the extension ${SKILLS_EXTENSION_ID}, so ${method} must not be called`,
        { method },
      );
    }
  }
}
