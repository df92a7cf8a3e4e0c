import type { CallOptions, Client } from '@mcpkit/client';
import { SkillsError } from '../skills-error';
import { SKILL_LIMITS, type Skill, type SkillFrontmatter, type SkillResource } from '../types';
import { skillRoot } from './skill-entry';
import { readVerified, type SkillFile } from './verified-read';

/**
 * A skill loaded by `SkillsClient.load`: its SKILL.md verified against the entry (size, digest, frontmatter), and the
 * entry held for as long as the host acts on the skill (SEP-2640 "The Acting Window and the Held Entry"). Its files are
 * read only when asked, and only those the held entry lists, each verified as it arrives.
 *
 * @example
 * ```ts
 * const skill = await skills.load(entry);
 * console.log(skill.frontmatter.name, skill.body);
 * const forms = await skill.readFile('references/FORMS.md'); // verified, or SkillsError
 * ```
 */
export class LoadedSkill {
  /** The entry the skill was loaded from, held while acting on it. */
  readonly entry: Skill;
  /** The SKILL.md text, verified. */
  readonly text: string;
  /** Its frontmatter (equal to the entry's). */
  readonly frontmatter: SkillFrontmatter;
  /** The Markdown after the frontmatter: the instructions. */
  readonly body: string;
  readonly #client: Client;
  readonly #listed: ReadonlyMap<string, SkillResource> | undefined;
  /** Bytes read of a dynamic skill so far (bounded by `SKILL_LIMITS.maxTotalBytes`). */
  #dynamicBytes: number;

  /** @internal `SkillsClient.load` makes it after verifying SKILL.md. */
  constructor(client: Client, entry: Skill, text: string, frontmatter: SkillFrontmatter, body: string, bytes: number) {
    this.#client = client;
    this.entry = entry;
    this.text = text;
    this.frontmatter = frontmatter;
    this.body = body;
    this.#listed =
      entry.resources === 'dynamic' ? undefined : new Map(entry.resources.map((resource) => [resource.uri, resource]));
    this.#dynamicBytes = bytes;
  }

  /** The URI of its SKILL.md. */
  get uri(): string {
    return this.entry.uri;
  }

  /** Its root directory (`skill://pdf-processing`): relative references resolve against it. */
  get root(): string {
    return skillRoot(this.entry.uri);
  }

  /** The files the held entry lists, or `'dynamic'`. */
  get files(): readonly SkillResource[] | 'dynamic' {
    return this.entry.resources;
  }

  /**
   * The URI a reference in the skill names: a relative path resolves against the skill's root (`references/GUIDE.md`
   * → `skill://refunds/references/GUIDE.md`); an absolute URI stays as it is.
   */
  resolve(reference: string): string {
    return new URL(reference, `${this.root}/SKILL.md`).href;
  }

  /**
   * Reads one file of the skill (a path relative to its root, or a URI) and verifies it against the held entry.
   * Refused without a request when the entry does not list it (`ERR_UNLISTED_FILE`: the skill changed; load it again
   * from a fresh `skills/get`); a mismatch is `ERR_SIZE_MISMATCH` or `ERR_DIGEST_MISMATCH`. A dynamic skill's files are
   * not verifiable; reading stops at `SKILL_LIMITS.maxTotalBytes` in all.
   */
  async readFile(reference: string, options?: CallOptions): Promise<SkillFile> {
    const uri = this.resolve(reference);
    if (this.#listed === undefined) {
      if (!uri.startsWith(`${this.root}/`)) {
        throw new SkillsError('ERR_UNLISTED_FILE', `${uri} is not a file of the skill ${this.uri}`, { uri });
      }
      const file = await readVerified(this.#client, uri, undefined, options);
      this.#dynamicBytes += file.bytes.length;
      if (this.#dynamicBytes > SKILL_LIMITS.maxTotalBytes) {
        throw new SkillsError(
          'ERR_INVALID_ENTRY',
          `The dynamic skill ${this.uri} went past ${SKILL_LIMITS.maxTotalBytes} bytes; loading stops there`,
          { uri, bytes: this.#dynamicBytes, limits: SKILL_LIMITS },
        );
      }
      return file;
    }
    const expected = this.#listed.get(uri);
    if (expected === undefined) {
      throw new SkillsError(
        'ERR_UNLISTED_FILE',
        `${uri} is not listed in the entry of ${this.uri}: reading it would be a verification failure (the skill changed; refresh it with skills/get and load it again)`,
        { uri, skill: this.uri },
      );
    }
    return readVerified(this.#client, uri, expected, options);
  }
}
