import { describe, expect, it } from 'vitest';
import { sha256Digest, utf8Bytes } from '../bytes';
import { SkillsError } from '../skills-error';
import { DIRECTORY_MIME_TYPE } from '../types';
import { SkillCatalog } from './skill-catalog';
import type { SkillDefinition } from './skill-definition';

const manifest = (name: string, extra = '') =>
  `---\nname: ${name}\ndescription: The ${name} skill\n${extra}---\nBody of ${name}\n`;

async function refusal(definitions: SkillDefinition[]): Promise<SkillsError> {
  const error = await SkillCatalog.build(definitions).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(SkillsError);
  expect((error as SkillsError).code).toBe('ERR_INVALID_SKILL');
  return error as SkillsError;
}

describe('SkillCatalog.build', () => {
  it('makes entries: URI from the path, frontmatter verbatim, every file with its digest and size, SKILL.md first', async () => {
    const catalog = await SkillCatalog.build([
      { files: { 'SKILL.md': manifest('git-workflow', 'license: MIT\n'), 'b.md': 'bee', 'a/x y.md': 'ex' } },
    ]);
    const skillMd = manifest('git-workflow', 'license: MIT\n');
    expect(catalog.skills).toEqual([
      {
        uri: 'skill://git-workflow/SKILL.md',
        frontmatter: { name: 'git-workflow', description: 'The git-workflow skill', license: 'MIT' },
        resources: [
          {
            uri: 'skill://git-workflow/SKILL.md',
            digest: await sha256Digest(utf8Bytes(skillMd)),
            size: utf8Bytes(skillMd).length,
          },
          // A file path segment is percent-encoded in its URI.
          { uri: 'skill://git-workflow/a/x%20y.md', digest: await sha256Digest(utf8Bytes('ex')), size: 2 },
          { uri: 'skill://git-workflow/b.md', digest: await sha256Digest(utf8Bytes('bee')), size: 3 },
        ],
      },
    ]);
    expect(catalog.file('skill://git-workflow/a/x%20y.md')).toMatchObject({ name: 'x y.md', text: 'ex' });
  });

  it('sorts entries by URI and serves bytes that are not UTF-8 as binary', async () => {
    const catalog = await SkillCatalog.build([
      { files: { 'SKILL.md': manifest('zeta'), 'logo.png': new Uint8Array([0x89, 0x50]) } },
      { path: 'acme/alpha', files: { 'SKILL.md': manifest('alpha'), 'notes.bin': new Uint8Array([0xff]) } },
    ]);
    expect(catalog.skills.map((skill) => skill.uri)).toEqual(['skill://acme/alpha/SKILL.md', 'skill://zeta/SKILL.md']);
    expect(catalog.file('skill://zeta/logo.png')?.mimeType).toBe('image/png');
    expect(catalog.file('skill://zeta/logo.png')?.text).toBeUndefined();
    expect(catalog.file('skill://acme/alpha/notes.bin')).toMatchObject({ mimeType: 'application/octet-stream' });
  });

  it("lists a nested skill's files in the entry of every skill that encloses it", async () => {
    const catalog = await SkillCatalog.build([
      { path: 'outer', files: { 'SKILL.md': manifest('outer') } },
      { path: 'outer/inner', files: { 'SKILL.md': manifest('inner'), 'x.md': 'x' } },
    ]);
    const outer = catalog.skill('skill://outer/SKILL.md')!;
    expect(outer.resources !== 'dynamic' && outer.resources.map((file) => file.uri)).toEqual([
      'skill://outer/SKILL.md',
      'skill://outer/inner/SKILL.md',
      'skill://outer/inner/x.md',
    ]);
    const inner = catalog.skill('skill://outer/inner/SKILL.md')!;
    expect(inner.resources !== 'dynamic' && inner.resources.map((file) => file.uri)).toEqual([
      'skill://outer/inner/SKILL.md',
      'skill://outer/inner/x.md',
    ]);
  });

  it('lists every directory level: prefixes, skill roots, subfolders (inode/directory), files with metadata', async () => {
    const catalog = await SkillCatalog.build([
      { path: 'acme/billing/refunds', files: { 'SKILL.md': manifest('refunds'), 'templates/eu/a.md': 'a' } },
    ]);
    const size = utf8Bytes(manifest('refunds')).length;
    expect(catalog.directory('skill://acme')).toEqual([
      { uri: 'skill://acme/billing', name: 'billing', mimeType: DIRECTORY_MIME_TYPE },
    ]);
    expect(catalog.directory('skill://acme/billing/refunds')).toEqual([
      { uri: 'skill://acme/billing/refunds/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size },
      { uri: 'skill://acme/billing/refunds/templates', name: 'templates', mimeType: DIRECTORY_MIME_TYPE },
    ]);
    expect(catalog.directory('skill://acme/billing/refunds/templates/eu')).toEqual([
      { uri: 'skill://acme/billing/refunds/templates/eu/a.md', name: 'a.md', mimeType: 'text/markdown', size: 1 },
    ]);
    expect(catalog.directory('skill://acme/billing/refunds/SKILL.md')).toBeUndefined();
    expect(catalog.directory('skill://nowhere')).toBeUndefined();
    // A SKILL.md resource is named and described from its frontmatter.
    expect(catalog.manifestResources()).toEqual([
      {
        uri: 'skill://acme/billing/refunds/SKILL.md',
        name: 'refunds',
        description: 'The refunds skill',
        mimeType: 'text/markdown',
        size,
      },
    ]);
  });

  it('refuses a skill without SKILL.md, with a broken manifest, or whose path does not end in its name', async () => {
    expect((await refusal([{ files: { 'README.md': 'x' } }])).message).toContain('needs a SKILL.md');
    expect((await refusal([{ files: { 'SKILL.md': '# no frontmatter' } }])).message).toContain('not a skill manifest');
    expect((await refusal([{ files: { 'SKILL.md': manifest('Bad_Name') } }])).message).toContain('naming rules');
    expect((await refusal([{ path: 'tools/other', files: { 'SKILL.md': manifest('pdf') } }])).data).toEqual({
      path: 'tools/other',
      name: 'pdf',
    });
    expect((await refusal([{ path: 'a b/pdf', files: { 'SKILL.md': manifest('pdf') } }])).message).toContain(
      'each segment',
    );
  });

  it.each(['../x.md', 'a//b.md', './a.md', 'a\\b.md', '/abs.md'])('refuses the file path %j', async (path) => {
    expect((await refusal([{ files: { 'SKILL.md': manifest('pdf'), [path]: 'x' } }])).message).toContain(
      'not a relative path',
    );
  });

  it('refuses two skills at one path, and one URI with two contents', async () => {
    await refusal([{ files: { 'SKILL.md': manifest('a') } }, { files: { 'SKILL.md': manifest('a') } }]);
    const error = await refusal([
      { path: 'outer', files: { 'SKILL.md': manifest('outer'), 'inner/SKILL.md': manifest('inner') } },
      { path: 'outer/inner', files: { 'SKILL.md': manifest('inner', 'license: MIT\n') } },
    ]);
    expect(error.data).toEqual({ uri: 'skill://outer/inner/SKILL.md' });
  });

  it('refuses a skill beyond the SEP-2640 limits (512 files, 16 MiB)', async () => {
    const many: Record<string, string> = { 'SKILL.md': manifest('many') };
    for (let i = 0; i < 512; i++) many[`f${i}.txt`] = '';
    expect((await refusal([{ files: many }])).data).toMatchObject({ files: 513 });
    const big = { 'SKILL.md': manifest('big'), 'big.bin': new Uint8Array(16 * 1024 * 1024) };
    expect((await refusal([{ files: big }])).data).toMatchObject({ path: 'big' });
  });
});
