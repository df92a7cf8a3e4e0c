import { invalidParamsError, type ReadResourceResult, type Resource, revisionHas } from '@mcpkit/protocol';
import {
  type CacheHint,
  type McpServer,
  type RegisteredResourceTemplate,
  RegistrationError,
  ResourceTemplate,
  type ServerExtension,
  type ServerRequestContext,
} from '@mcpkit/server';
import { toBase64 } from '../bytes';
import {
  type GetSkillResult,
  type ListSkillsResult,
  type ReadResourceDirectoryResult,
  SKILLS_EXTENSION_ID,
  type Skill,
} from '../types';
import { pageOf } from './paging';
import { SkillCatalog } from './skill-catalog';
import type { SkillDefinition } from './skill-definition';

/** Options of `SkillsServer`. */
export interface SkillsServerOptions {
  /** The skills served from the start (`setSkills` replaces them later). Default: none. */
  skills?: Iterable<SkillDefinition>;
  /** Declare `directoryRead: true` and answer `resources/directory/read`. Default `true`. */
  directoryRead?: boolean;
  /** Entries per `skills/list` page, and children per `resources/directory/read` page. Default 50. */
  pageSize?: number;
  /**
   * What `resources/list` shows of the skills: `'manifests'` (default: each SKILL.md, named and described from its
   * frontmatter), `'all'` (every file), `'none'` (skills are found through `skills/list` only). Every file is readable
   * with `resources/read` either way.
   */
  listResources?: 'manifests' | 'all' | 'none';
  /**
   * The caching hint (2026-07-28) of `skills/list`, `skills/get` and `resources/read` of skill files. Default: the
   * server's own default, `{ ttlMs: 0, cacheScope: 'private' }`; skills the same for every caller may say `'public'`.
   */
  cache?: CacheHint;
  /** The name of the resource template (`skill://{+path}`) that serves the files. Default `'skills'`. */
  templateName?: string;
}

const DEFAULT_CACHE: CacheHint = Object.freeze({ ttlMs: 0, cacheScope: 'private' });
const MAX_COMPLETIONS = 100;

// How a `SkillsServer` becomes an extension: defined inside the class (it reads the instance's private state) and
// shared by `skills()` and the constructor. `adopting` tells a constructor called by `skills()`'s install that the
// extension is being installed already.
let extensionOf: (
  existing: SkillsServer | undefined,
  options: SkillsServerOptions,
) => ServerExtension<SkillsServer, McpServer>;
let adopting = false;

/**
 * The skills extension for `McpServer.extend`: returns the `SkillsServer` it installs.
 *
 * @example
 * ```ts
 * const skillsServer = mcpServer.extend(skills({ skills: [{ files: { 'SKILL.md': markdown } }] }));
 * await skillsServer.ready;
 * ```
 */
export function skills(options: SkillsServerOptions = {}): ServerExtension<SkillsServer, McpServer> {
  return extensionOf(undefined, options);
}

/**
 * Serves Agent Skills over MCP: the extension `io.modelcontextprotocol/skills` (SEP-2640) on the server's extension
 * seam. `skills/list` (paged entries with each file's SHA-256 digest and size), `skills/get`, and, declared with
 * `directoryRead: true`, `resources/directory/read`; every file is a `skill://<skill-path>/<file-path>` resource read
 * with `resources/read`, each SKILL.md listed in `resources/list` with its frontmatter's name and description. The same
 * in both protocol eras.
 *
 * @example
 * ```ts
 * const skillsServer = mcpServer.extend(skills({
 *   skills: [{ files: { 'SKILL.md': '---\nname: git-workflow\ndescription: Our Git conventions\n---\n# Branches\n' } }],
 * }));
 * await skillsServer.ready; // digests are taken (WebCrypto) before the first answer
 * ```
 */
export class SkillsServer {
  /**
   * Settles when the skills of `options.skills` are served; rejects with `SkillsError` `ERR_INVALID_SKILL` when one of
   * them cannot be (the server then serves none).
   */
  readonly ready: Promise<void>;
  readonly #pageSize: number;
  readonly #cache: CacheHint;
  readonly #template: RegisteredResourceTemplate;
  readonly #initial: Promise<void>;
  #catalog = SkillCatalog.empty();
  #generation = 0;
  #requested = 0;
  #applied = 0;

  constructor(server: McpServer, options: SkillsServerOptions = {}) {
    const pageSize = options.pageSize ?? 50;
    if (!Number.isInteger(pageSize) || pageSize < 1) {
      throw new RangeError(`SkillsServer: pageSize must be a positive integer, got ${String(pageSize)}`);
    }
    this.#pageSize = pageSize;
    this.#cache = options.cache ?? DEFAULT_CACHE;
    const listing = options.listResources ?? 'manifests';
    // Checked before anything is registered, so a second SkillsServer on one server leaves nothing half installed
    // (`skills()` is checked by `extend` before its install constructs this).
    if (!adopting && server.server.extensions.has(SKILLS_EXTENSION_ID)) {
      throw new RegistrationError(
        'ERR_DUPLICATE_EXTENSION',
        `SkillsServer: ${SKILLS_EXTENSION_ID} is already served by this server; replace its skills with setSkills`,
        { id: SKILLS_EXTENSION_ID },
      );
    }

    // The files: one template for every skill:// URI, so the catalog can be replaced without re-registering.
    const template = new ResourceTemplate('skill://{+path}', {
      ...(listing !== 'none' && {
        list: async () => {
          const catalog = await this.#catalogNow();
          return listing === 'all' ? catalog.fileResources() : catalog.manifestResources();
        },
      }),
      complete: {
        path: async (value) => {
          const matches: string[] = [];
          for (const uri of (await this.#catalogNow()).fileUris()) {
            // The variable's value is decoded: expanding `{+path}` encodes it again.
            const path = decodeURIComponent(uri.slice('skill://'.length));
            if (path.startsWith(value)) matches.push(path);
            if (matches.length === MAX_COMPLETIONS) break;
          }
          return matches;
        },
      },
    });
    this.#template = server.registerResource(
      options.templateName ?? 'skills',
      template,
      { description: 'The files of the skills this server serves (SEP-2640)', cache: this.#cache },
      async (uri) => this.#read(uri),
    );

    this.ready = this.setSkills(options.skills ?? []);
    // Requests wait for the first catalog; a failure is the caller's to see through `ready`, never an unhandled
    // rejection that would end the process.
    this.#initial = this.ready.catch(() => undefined);
    // Constructed by `skills()`'s install, the extension is being installed already; constructed directly (the older
    // shape), it installs itself the same way, through the public `extend`.
    if (adopting) adopting = false;
    else server.extend(extensionOf(this, options));
  }

  static {
    extensionOf = (existing, options) => {
      let live = existing;
      const now = (): SkillsServer => {
        // Unreachable: extend routes the methods and calls install in one synchronous step.
        if (live === undefined) throw new Error('SkillsServer: the skills extension is not installed yet');
        return live;
      };
      const directoryRead = options.directoryRead ?? true;
      return {
        id: SKILLS_EXTENSION_ID,
        declaration: directoryRead ? { directoryRead: true } : {},
        methods: {
          'skills/list': (params: { cursor?: unknown } | undefined, ctx: ServerRequestContext) =>
            now().#list(params, ctx),
          'skills/get': (params: { uri?: unknown } | undefined, ctx: ServerRequestContext) => now().#get(params, ctx),
          ...(directoryRead && {
            'resources/directory/read': (params: { uri?: unknown; cursor?: unknown } | undefined) =>
              now().#readDirectory(params),
          }),
        },
        install: ({ host }) => {
          if (live !== undefined) return live;
          adopting = true;
          try {
            live = new SkillsServer(host, options);
          } finally {
            adopting = false;
          }
          return live;
        },
      };
    };
  }

  /** The entries served now, sorted by URI. */
  get skills(): readonly Skill[] {
    return this.#catalog.skills;
  }

  /**
   * Replaces the skills served, at once for every request that starts afterwards (cursors of the old set are refused
   * as stale, and clients listening for resource list changes are told). When calls overlap, the last one wins.
   * Rejects with `SkillsError` `ERR_INVALID_SKILL`, serving what it served before, when a definition cannot be served.
   *
   * @example
   * ```ts
   * await skills.setSkills(await readSkillsDirectory('./skills')); // after the folder changed
   * ```
   */
  async setSkills(skills: Iterable<SkillDefinition>): Promise<void> {
    const ticket = ++this.#requested;
    const catalog = await SkillCatalog.build(skills);
    if (ticket < this.#applied) return; // a later call already applied its skills
    this.#applied = ticket;
    this.#catalog = catalog;
    this.#generation++;
    this.#template.update({}); // resources/list changes with the catalog
  }

  async #catalogNow(): Promise<SkillCatalog> {
    await this.#initial;
    return this.#catalog;
  }

  #cacheFields(ctx: ServerRequestContext): Partial<CacheHint> {
    // The skills' own cache hint, as for resources: only revisions with caching (2026-07-28) carry one.
    return revisionHas(ctx.protocolVersion, 'caching')
      ? { ttlMs: this.#cache.ttlMs, cacheScope: this.#cache.cacheScope }
      : {};
  }

  async #list(params: { cursor?: unknown } | undefined, ctx: ServerRequestContext): Promise<ListSkillsResult> {
    const catalog = await this.#catalogNow();
    const page = pageOf(catalog.skills, params?.cursor, this.#pageSize, this.#generation);
    const result: ListSkillsResult = { skills: page.items, ...this.#cacheFields(ctx) };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  async #get(params: { uri?: unknown } | undefined, ctx: ServerRequestContext): Promise<GetSkillResult> {
    const uri = params?.uri;
    if (typeof uri !== 'string') throw invalidParamsError('skills/get needs params.uri (a string)', { uri });
    const skill = (await this.#catalogNow()).skill(uri);
    if (skill === undefined) throw invalidParamsError(`No skill is served at ${uri}`, { uri });
    return { skill, ...this.#cacheFields(ctx) };
  }

  async #readDirectory(params: { uri?: unknown; cursor?: unknown } | undefined): Promise<ReadResourceDirectoryResult> {
    const uri = params?.uri;
    if (typeof uri !== 'string') {
      throw invalidParamsError('resources/directory/read needs params.uri (a string)', { uri });
    }
    const catalog = await this.#catalogNow();
    const children = catalog.directory(uri);
    if (children === undefined) {
      throw invalidParamsError(
        catalog.file(uri) === undefined
          ? `No directory resource is served at ${uri}`
          : `${uri} is not a directory resource`,
        { uri },
      );
    }
    const page = pageOf<Resource>(children, params?.cursor, this.#pageSize, this.#generation);
    const result: ReadResourceDirectoryResult = { resources: page.items };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  async #read(uri: string): Promise<ReadResourceResult | undefined> {
    const file = (await this.#catalogNow()).file(uri);
    if (file === undefined) return undefined;
    const content =
      file.text === undefined
        ? { uri, mimeType: file.mimeType, blob: toBase64(file.bytes) }
        : { uri, mimeType: file.mimeType, text: file.text };
    return { contents: [content] };
  }
}
