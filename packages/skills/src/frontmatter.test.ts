import { describe, expect, it } from 'vitest';
import { parseSkillMarkdown, SKILL_NAME, sameJson } from './frontmatter';

describe('parseSkillMarkdown', () => {
  it('reads the frontmatter as JSON (every field as written) and the body after it', () => {
    const parsed = parseSkillMarkdown(
      '---\nname: pdf\ndescription: PDFs\nlicense: MIT\nmetadata:\n  version: 2.1.0\n  released: 2026-01-02\n  tags: [a, b]\n---\n# Body\n',
    );
    expect(parsed).toEqual({
      ok: true,
      // YAML 1.2 core schema: a version and a date stay strings.
      frontmatter: {
        name: 'pdf',
        description: 'PDFs',
        license: 'MIT',
        metadata: { version: '2.1.0', released: '2026-01-02', tags: ['a', 'b'] },
      },
      body: '# Body\n',
    });
  });

  it('accepts CRLF line ends, a leading BOM and a file that ends at the closing line', () => {
    expect(parseSkillMarkdown('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\nbody')).toMatchObject({
      ok: true,
      body: 'body',
    });
    expect(parseSkillMarkdown('---\nname: a\ndescription: b\n---')).toMatchObject({ ok: true, body: '' });
  });

  it.each([
    ['no frontmatter block', '# Just markdown\n', 'does not begin'],
    ['text before the block', '\n---\nname: a\ndescription: b\n---\n', 'does not begin'],
    ['invalid YAML', '---\nname: [a\ndescription: b\n---\n', 'not valid YAML'],
    ['a key given twice', '---\nname: a\nname: b\ndescription: c\n---\n', 'not valid YAML'],
    ['a list, not a mapping', '---\n- a\n- b\n---\n', 'not a YAML mapping'],
    ['a value JSON cannot carry', '---\nname: a\ndescription: b\nweight: .inf\n---\n', 'frontmatter.weight'],
    ['no name', '---\ndescription: b\n---\n', 'no name'],
    ['an empty description', "---\nname: a\ndescription: ''\n---\n", 'no description'],
    ['a description over 1024 characters', `---\nname: a\ndescription: ${'x'.repeat(1025)}\n---\n`, 'longer than'],
  ])('refuses %s', (_case, text, reason) => {
    const parsed = parseSkillMarkdown(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toContain(reason);
  });

  it('bounds alias expansion (a "billion laughs" document)', () => {
    const aliases = Array.from({ length: 200 }, () => '  - *a').join('\n');
    const parsed = parseSkillMarkdown(`---\nname: a\ndescription: b\nroot: &a x\nmany:\n${aliases}\n---\n`);
    expect(parsed.ok).toBe(false);
  });
});

describe('SKILL_NAME', () => {
  it.each(['a', 'pdf-processing', 'a1-b2', 'x'.repeat(64)])('accepts %s', (name) => {
    expect(SKILL_NAME.test(name)).toBe(true);
  });
  it.each(['', 'PDF', '-a', 'a-', 'a--b', 'a_b', 'x'.repeat(65)])('refuses %j', (name) => {
    expect(SKILL_NAME.test(name)).toBe(false);
  });
});

describe('sameJson', () => {
  it('compares objects key by key in any order, arrays item by item', () => {
    expect(sameJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: '1' }, { a: 1 })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
