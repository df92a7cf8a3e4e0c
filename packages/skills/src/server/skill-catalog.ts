import type { Resource } from '@mcpkit/protocol';
import { sha256Digest } from '../bytes';
import { SkillsError } from '../skills-error';
import { DIRECTORY_MIME_TYPE, SKILL_LIMITS, type Skill, type SkillResource } from '../types';
import { type PreparedFile, type PreparedSkill, prepareSkill, type SkillDefinition } from './skill-definition';

/** A file the catalog serves: its bytes, how it is served, and its digest. */
export interface CatalogFile extends PreparedFile {
  digest: string;
}

/**
 * An immutable snapshot of the skills a server serves: the entries of `skills/list` (sorted by URI), every file by
 * URI, and every directory level with its direct children (`resources/directory/read`). Built once per set of
 * definitions (digests are async); `SkillsServer` swaps snapshots, so a request sees one catalog from start to end.
 */
export class SkillCatalog {
  /** The entries, sorted by URI. */
  readonly skills: readonly Skill[];
  readonly #skills: ReadonlyMap<string, Skill>;
  readonly #files: ReadonlyMap<string, CatalogFile>;
  readonly #directories: ReadonlyMap<string, readonly Resource[]>;
  #manifestResources: Resource[] | undefined;
  #fileResources: Resource[] | undefined;

  private constructor(skills: Skill[], files: Map<string, CatalogFile>) {
    skills.sort((a, b) => compare(a.uri, b.uri));
    this.skills = skills;
    this.#skills = new Map(skills.map((skill) => [skill.uri, skill]));
    this.#files = files;
    this.#directories = directoriesOf(files);
  }

  /** An empty catalog. */
  static empty(): SkillCatalog {
    return new SkillCatalog([], new Map());
  }

  /**
   * Checks the definitions and takes every file's digest. Throws `SkillsError` `ERR_INVALID_SKILL` for a definition
   * against the rules, two skills at one path, one URI with two contents, or a skill beyond `SKILL_LIMITS`.
   */
  static async build(definitions: Iterable<SkillDefinition>): Promise<SkillCatalog> {
    const prepared = [...definitions].map(prepareSkill);
    const byPath = new Map<string, PreparedSkill>();
    const files = new Map<string, PreparedFile>();
    for (const skill of prepared) {
      if (byPath.has(skill.path)) {
        throw new SkillsError('ERR_INVALID_SKILL', `two skills are defined at the path '${skill.path}'`, {
          path: skill.path,
        });
      }
      byPath.set(skill.path, skill);
      for (const file of skill.files.values()) addFile(files, file);
    }
    // Completeness extends to nested skills: their files are supporting files of every skill that encloses them.
    const members = new Map<PreparedSkill, Map<string, PreparedFile>>();
    for (const skill of prepared) {
      const own = new Map(skill.files);
      for (const other of prepared) {
        if (other !== skill && other.path.startsWith(`${skill.path}/`)) {
          for (const file of other.files.values()) own.set(file.uri, file);
        }
      }
      checkLimits(skill, own);
      members.set(skill, own);
    }
    const digests = new Map<string, string>();
    await Promise.all(
      [...files.values()].map(async (file) => {
        digests.set(file.uri, await sha256Digest(file.bytes));
      }),
    );
    const catalogFiles = new Map<string, CatalogFile>();
    for (const file of files.values()) catalogFiles.set(file.uri, { ...file, digest: digests.get(file.uri)! });
    const skills = prepared.map((skill): Skill => {
      const resources = [...members.get(skill)!.values()]
        .map((file): SkillResource => ({ uri: file.uri, digest: digests.get(file.uri)!, size: file.bytes.length }))
        // SKILL.md first, then by URI: a stable order, so equal catalogs give equal entries.
        .sort((a, b) => (a.uri === skill.uri ? -1 : b.uri === skill.uri ? 1 : compare(a.uri, b.uri)));
      return { uri: skill.uri, frontmatter: skill.frontmatter, resources };
    });
    return new SkillCatalog(skills, catalogFiles);
  }

  /** The entry of the skill whose SKILL.md is at `uri`. */
  skill(uri: string): Skill | undefined {
    return this.#skills.get(uri);
  }

  /** The file at `uri`. */
  file(uri: string): CatalogFile | undefined {
    return this.#files.get(uri);
  }

  /** The direct children of the directory at `uri` (sorted by name), or `undefined` when it is not a directory. */
  directory(uri: string): readonly Resource[] | undefined {
    return this.#directories.get(uri);
  }

  /** Every file's URI (completion of the template's `path`). */
  fileUris(): IterableIterator<string> {
    return this.#files.keys();
  }

  /** The resource metadata of one file; for a SKILL.md, `name` and `description` come from the frontmatter. */
  resourceOf(file: CatalogFile): Resource {
    const skill = this.#skills.get(file.uri);
    if (skill === undefined)
      return { uri: file.uri, name: file.name, mimeType: file.mimeType, size: file.bytes.length };
    return {
      uri: file.uri,
      name: skill.frontmatter.name,
      description: skill.frontmatter.description,
      mimeType: file.mimeType,
      size: file.bytes.length,
    };
  }

  /** The SKILL.md resources, in entry order (built once per catalog: `resources/list` asks for them each time). */
  manifestResources(): readonly Resource[] {
    this.#manifestResources ??= this.skills.map((skill) => this.resourceOf(this.#files.get(skill.uri)!));
    return this.#manifestResources;
  }

  /** Every file's resource, sorted by URI (built once per catalog). */
  fileResources(): readonly Resource[] {
    this.#fileResources ??= [...this.#files.values()]
      .sort((a, b) => compare(a.uri, b.uri))
      .map((file) => this.resourceOf(file));
    return this.#fileResources;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Adds a file to the URI map; the same URI twice must carry the same bytes (a nested skill seen from two sides). */
function addFile(files: Map<string, PreparedFile>, file: PreparedFile): void {
  const known = files.get(file.uri);
  if (known === undefined) {
    files.set(file.uri, file);
    return;
  }
  const same = known.bytes.length === file.bytes.length && known.bytes.every((byte, i) => byte === file.bytes[i]);
  if (!same) {
    throw new SkillsError('ERR_INVALID_SKILL', `two skills give ${file.uri} different contents`, { uri: file.uri });
  }
}

function checkLimits(skill: PreparedSkill, files: ReadonlyMap<string, PreparedFile>): void {
  let total = 0;
  for (const file of files.values()) total += file.bytes.length;
  if (files.size > SKILL_LIMITS.maxResources || total > SKILL_LIMITS.maxTotalBytes) {
    throw new SkillsError(
      'ERR_INVALID_SKILL',
      `skill '${skill.path}' has ${files.size} files of ${total} bytes in all; hosts are only bound to load up to ${SKILL_LIMITS.maxResources} files and ${SKILL_LIMITS.maxTotalBytes} bytes (SEP-2640 limits)`,
      { path: skill.path, files: files.size, bytes: total, limits: SKILL_LIMITS },
    );
  }
}

/**
 * Every directory level above the files, each with its direct children: `skill://acme` lists `skill://acme/billing`,
 * a skill root lists its files and subdirectories. URIs without a trailing slash, as SEP-2640 writes them.
 */
function directoriesOf(files: ReadonlyMap<string, CatalogFile>): Map<string, Resource[]> {
  const children = new Map<string, Map<string, Resource>>();
  const childrenOf = (uri: string) => {
    let found = children.get(uri);
    if (found === undefined) {
      found = new Map();
      children.set(uri, found);
    }
    return found;
  };
  for (const file of files.values()) {
    const segments = file.uri.slice('skill://'.length).split('/');
    let parent = `skill://${segments[0]}`;
    childrenOf(parent);
    for (let i = 1; i < segments.length - 1; i++) {
      const uri = `${parent}/${segments[i]}`;
      childrenOf(parent).set(uri, { uri, name: decodeURIComponent(segments[i]!), mimeType: DIRECTORY_MIME_TYPE });
      childrenOf(uri);
      parent = uri;
    }
    childrenOf(parent).set(file.uri, {
      uri: file.uri,
      name: file.name,
      mimeType: file.mimeType,
      size: file.bytes.length,
    });
  }
  const directories = new Map<string, Resource[]>();
  for (const [uri, entries] of children) {
    directories.set(
      uri,
      [...entries.values()].sort((a, b) => compare(a.name, b.name)),
    );
  }
  return directories;
}
