import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Digest } from '../bytes';
import { SkillCatalog } from '../server/skill-catalog';
import { SkillsError } from '../skills-error';
import { readSkillsDirectory } from './read-skills-directory';

const manifest = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n`;
const folders: string[] = [];

async function tree(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'mcpkit-skills-'));
  folders.push(root);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('readSkillsDirectory', () => {
  it('finds every folder with a SKILL.md, at its path, with all its files (nested skills included)', async () => {
    const root = await tree({
      'pdf-processing/SKILL.md': manifest('pdf-processing'),
      'pdf-processing/references/FORMS.md': 'forms',
      'acme/billing/refunds/SKILL.md': manifest('refunds'),
      'acme/billing/refunds/inner/SKILL.md': manifest('inner'),
      'acme/README.md': 'not part of any skill',
      'pdf-processing/.hidden': 'skipped',
    });
    const definitions = await readSkillsDirectory(root);
    expect(definitions.map((definition) => [definition.path, Object.keys(definition.files).sort()])).toEqual([
      ['acme/billing/refunds', ['SKILL.md', 'inner/SKILL.md']],
      ['acme/billing/refunds/inner', ['SKILL.md']],
      ['pdf-processing', ['SKILL.md', 'references/FORMS.md']],
    ]);
    // Served as they are on disk: the digest is the file's own.
    const catalog = await SkillCatalog.build(definitions);
    const pdf = catalog.skill('skill://pdf-processing/SKILL.md')!;
    expect(pdf.resources !== 'dynamic' && pdf.resources[1]).toEqual({
      uri: 'skill://pdf-processing/references/FORMS.md',
      digest: await sha256Digest(await readFile(join(root, 'pdf-processing/references/FORMS.md'))),
      size: 5,
    });
  });

  it('includes hidden files when asked, and never follows symbolic links', async () => {
    const outside = await tree({ 'secret.txt': 'secret' });
    const root = await tree({ 'a/SKILL.md': manifest('a'), 'a/.config': 'c' });
    await symlink(join(outside, 'secret.txt'), join(root, 'a/link.txt'));
    const [definition] = await readSkillsDirectory(root, { includeHidden: true });
    expect(Object.keys(definition!.files).sort()).toEqual(['.config', 'SKILL.md']);
  });

  it('a root that is a skill itself is named after its folder', async () => {
    const parent = await tree({
      'tool-guide/SKILL.md': manifest('tool-guide'),
      'tool-guide/sub/b/SKILL.md': manifest('b'),
    });
    const definitions = await readSkillsDirectory(join(parent, 'tool-guide'));
    expect(definitions.map((definition) => definition.path)).toEqual(['tool-guide', 'tool-guide/sub/b']);
  });

  it('fails on a skill past the limits before reading it, and on a runaway tree', async () => {
    const root = await tree({ 'big/SKILL.md': manifest('big'), 'big/blob.bin': new Uint8Array(16 * 1024 * 1024) });
    const error = await readSkillsDirectory(root).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkillsError);
    expect((error as SkillsError).data).toMatchObject({ path: 'big', files: 2 });
    await expect(readSkillsDirectory(root, { maxEntries: 2 })).rejects.toMatchObject({ code: 'ERR_INVALID_SKILL' });
    await expect(readSkillsDirectory(root, { maxDepth: 0 })).rejects.toMatchObject({ code: 'ERR_INVALID_SKILL' });
  });
});
