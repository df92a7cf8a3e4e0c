import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, validateToolName } from './tool-names.js';

describe('validateToolName (SEP-986)', () => {
  it.each(['getUser', 'DATA_EXPORT_v2', 'admin.tools.list', 'a', 'x'.repeat(128), 'get-weather', '0day'])(
    'accepts %j',
    (name) => {
      expect(validateToolName(name)).toEqual({ ok: true, warnings: [] });
    },
  );

  it.each([
    ['empty', '', /empty/],
    ['129 characters', 'x'.repeat(129), /129 characters long; the maximum is 128/],
    ['a space', 'get user', /" "/],
    ['a comma', 'a,b', /","/],
    ['a slash', 'github/create_issue', /"\/"/],
    ['a colon', 'ns:tool', /":"/],
    ['non-ASCII letters', 'wetter_für_köln', /"ü", "ö"/],
    ['an emoji', 'rocket🚀', /"🚀"/],
    ['a tab', 'a\tb', /"\\t"/],
  ])('rejects a name with %s', (_label, name, reason) => {
    const check = validateToolName(name);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });

  it('warns about leading and trailing hyphens and dots', () => {
    expect(validateToolName('-tool')).toEqual({
      ok: true,
      warnings: ['Tool name "-tool" starts with "-", which some clients misparse'],
    });
    expect(validateToolName('tool.')).toMatchObject({ ok: true, warnings: [expect.stringContaining('ends with "."')] });
    expect(validateToolName('.x-')).toMatchObject({ ok: true, warnings: [expect.any(String), expect.any(String)] });
  });

  it('keeps warnings alongside an error', () => {
    expect(validateToolName('-a b')).toMatchObject({ ok: false, warnings: [expect.stringContaining('starts with')] });
  });

  it('exposes the length limit', () => {
    expect(MAX_TOOL_NAME_LENGTH).toBe(128);
  });
});
