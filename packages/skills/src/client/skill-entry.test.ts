import { describe, expect, it } from 'vitest';
import { SkillsError } from '../skills-error';
import { checkSkillEntry } from './skill-entry';

const digest = `sha256:${'a'.repeat(64)}`;
const valid = () => ({
  uri: 'skill://acme/refunds/SKILL.md',
  frontmatter: { name: 'refunds', description: 'Refunds' },
  resources: [
    { uri: 'skill://acme/refunds/SKILL.md', digest, size: 10 },
    { uri: 'skill://acme/refunds/a.md', digest, size: 0 },
  ],
});

function refusal(entry: unknown): string {
  try {
    checkSkillEntry(entry);
  } catch (error) {
    expect(error).toBeInstanceOf(SkillsError);
    expect((error as SkillsError).code).toBe('ERR_INVALID_ENTRY');
    return (error as SkillsError).message;
  }
  throw new Error('the entry was accepted');
}

describe('checkSkillEntry', () => {
  it('accepts a well-formed entry, and a dynamic one', () => {
    expect(checkSkillEntry(valid())).toEqual(valid());
    expect(checkSkillEntry({ ...valid(), resources: 'dynamic' }).resources).toBe('dynamic');
  });

  it.each([
    ['not an object', null, 'not an object'],
    ['a uri that is no SKILL.md', { ...valid(), uri: 'skill://acme/refunds/README.md' }, 'not the URI of a SKILL.md'],
    ['no description', { ...valid(), frontmatter: { name: 'refunds' } }, 'lacks a name or a description'],
    [
      'a path that does not end in the name',
      { ...valid(), frontmatter: { name: 'other', description: 'd' } },
      'last segment',
    ],
    ['no resources', { ...valid(), resources: undefined }, "neither a list nor 'dynamic'"],
    [
      'a malformed digest',
      { ...valid(), resources: [{ uri: 'skill://acme/refunds/SKILL.md', digest: 'sha256:ABC', size: 1 }] },
      'no digest',
    ],
    [
      'a negative size',
      { ...valid(), resources: [{ uri: 'skill://acme/refunds/SKILL.md', digest, size: -1 }] },
      'no byte size',
    ],
    [
      'a file outside the skill',
      { ...valid(), resources: [...valid().resources, { uri: 'skill://acme/other/x.md', digest, size: 1 }] },
      'outside the skill',
    ],
    [
      'a file listed twice',
      { ...valid(), resources: [...valid().resources, { uri: 'skill://acme/refunds/a.md', digest, size: 0 }] },
      'listed twice',
    ],
    ['no SKILL.md among its resources', { ...valid(), resources: [valid().resources[1]] }, 'do not list its SKILL.md'],
    [
      'more than 16 MiB',
      { ...valid(), resources: [{ uri: 'skill://acme/refunds/SKILL.md', digest, size: 16 * 1024 * 1024 + 1 }] },
      'beyond the limits',
    ],
  ])('refuses %s', (_case, entry, message) => {
    expect(refusal(entry)).toContain(message);
  });
});
