import { lstat, readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { SkillDefinition } from '../server/skill-definition';
import { SkillsError } from '../skills-error';
import { SKILL_LIMITS } from '../types';

/** Options of `readSkillsDirectory`. */
export interface ReadSkillsDirectoryOptions {
  /** Include files and folders whose name starts with `.` (`.git`, `.DS_Store`). Default `false`. */
  includeHidden?: boolean;
  /** The most files and folders the walk visits before it fails (a runaway tree). Default 100 000. */
  maxEntries?: number;
  /** The deepest folder level it descends to. Default 32. */
  maxDepth?: number;
}

interface FoundFile {
  /** Path from the root, `/`-separated. */
  path: string;
  absolute: string;
  size: number;
}

/**
 * Reads the skills under a folder, for `SkillsServer`: every folder with a `SKILL.md` is a skill, at the path of that
 * folder from `root` (`root/acme/billing/refunds/SKILL.md` → `acme/billing/refunds`; a `SKILL.md` in `root` itself
 * makes `root` a skill named after it). A skill's files are everything under its folder, nested skills included (they
 * are supporting files of the skill that encloses them); files outside any skill are left out. Symbolic links are not
 * followed. A skill past `SKILL_LIMITS` fails the read before its files are loaded (`SkillsError` `ERR_INVALID_SKILL`);
 * the rules of names and frontmatter are checked when the definitions reach `SkillsServer`.
 *
 * @example
 * ```ts
 * import { readSkillsDirectory } from '@mcpkit/skills/node';
 * const skills = new SkillsServer(mcpServer, { skills: await readSkillsDirectory('./skills') });
 * await skills.ready;
 * ```
 */
export async function readSkillsDirectory(
  root: string,
  options: ReadSkillsDirectoryOptions = {},
): Promise<SkillDefinition[]> {
  const absoluteRoot = resolve(root);
  const includeHidden = options.includeHidden ?? false;
  const maxEntries = options.maxEntries ?? 100_000;
  const maxDepth = options.maxDepth ?? 32;
  const files: FoundFile[] = [];
  const skillFolders: string[] = [];
  let visited = 0;

  const walk = async (folder: string, relative: string, depth: number): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      if (!includeHidden && entry.name.startsWith('.')) continue;
      if (++visited > maxEntries) {
        throw new SkillsError('ERR_INVALID_SKILL', `${absoluteRoot} holds more than ${maxEntries} files and folders`, {
          root: absoluteRoot,
          maxEntries,
        });
      }
      const absolute = join(folder, entry.name);
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (depth >= maxDepth) {
          throw new SkillsError('ERR_INVALID_SKILL', `${absolute} is deeper than ${maxDepth} folders`, {
            path: absolute,
            maxDepth,
          });
        }
        await walk(absolute, path, depth + 1);
      } else if (entry.isFile()) {
        files.push({ path, absolute, size: (await lstat(absolute)).size });
        if (entry.name === 'SKILL.md') skillFolders.push(relative);
      }
    }
  };
  await walk(absoluteRoot, '', 0);

  // A root that is a skill itself is named after its folder, and the skills nested in it sit below that name.
  const prefix = skillFolders.includes('') ? basename(absoluteRoot) : undefined;
  const contents = new Map<string, Promise<Uint8Array>>();
  const read = (file: FoundFile) => {
    let content = contents.get(file.absolute);
    if (content === undefined) {
      content = readFile(file.absolute);
      contents.set(file.absolute, content);
    }
    return content;
  };
  const definitions: SkillDefinition[] = [];
  for (const folder of skillFolders.sort()) {
    const inside = folder === '' ? files : files.filter((file) => file.path.startsWith(`${folder}/`));
    const total = inside.reduce((sum, file) => sum + file.size, 0);
    const skillPath = prefix === undefined ? folder : folder === '' ? prefix : `${prefix}/${folder}`;
    if (inside.length > SKILL_LIMITS.maxResources || total > SKILL_LIMITS.maxTotalBytes) {
      throw new SkillsError(
        'ERR_INVALID_SKILL',
        `skill '${skillPath}' has ${inside.length} files of ${total} bytes in all; hosts are only bound to load up to ${SKILL_LIMITS.maxResources} files and ${SKILL_LIMITS.maxTotalBytes} bytes (SEP-2640 limits)`,
        { path: skillPath, files: inside.length, bytes: total, limits: SKILL_LIMITS },
      );
    }
    const skillFiles: Record<string, Uint8Array> = {};
    for (const file of inside) {
      skillFiles[folder === '' ? file.path : file.path.slice(folder.length + 1)] = await read(file);
    }
    definitions.push({ path: skillPath, files: skillFiles });
  }
  return definitions;
}
