/** The result of {@link validateToolName}. */
export type ToolNameCheck =
  | {
      ok: true;
      /** Legal but risky traits (leading or trailing `-` / `.`); a server SHOULD consider renaming. */
      warnings: string[];
    }
  | {
      ok: false;
      /** Why the name breaks the SEP-986 format. */
      reason: string;
      warnings: string[];
    };

/** The longest tool name SEP-986 allows. */
export const MAX_TOOL_NAME_LENGTH = 128;

const ALLOWED = /^[A-Za-z0-9_.-]+$/;

/**
 * Checks a tool name against the SEP-986 format (2025-11-25+ guidance): 1 to 128 characters, only ASCII letters,
 * digits, `_`, `-` and `.`; case-sensitive.
 *
 * The spec words these rules as SHOULDs, so `ok: false` means "does not conform": a server SHOULD NOT advertise such
 * a name (registering one is where an SDK should refuse or warn loudly), while a client SHOULD still accept tools
 * whose names do not conform. Warnings flag conforming names likely to trip parsers (a leading or trailing `-` or
 * `.`).
 *
 * @example
 * ```ts
 * validateToolName('admin.tools.list'); // { ok: true, warnings: [] }
 * validateToolName('get user'); // { ok: false, reason: 'Tool name "get user" contains " " …', warnings: [] }
 * validateToolName('-tool'); // { ok: true, warnings: ['Tool name "-tool" starts with "-" …'] }
 * ```
 */
export function validateToolName(name: string): ToolNameCheck {
  const warnings: string[] = [];
  if (name.length === 0) return { ok: false, reason: 'Tool name is empty; use 1 to 128 characters', warnings };
  if (name.length > MAX_TOOL_NAME_LENGTH) {
    return {
      ok: false,
      reason: `Tool name is ${name.length} characters long; the maximum is ${MAX_TOOL_NAME_LENGTH}`,
      warnings,
    };
  }
  for (const edge of ['-', '.'] as const) {
    if (name.startsWith(edge)) warnings.push(`Tool name "${name}" starts with "${edge}", which some clients misparse`);
    if (name.endsWith(edge)) warnings.push(`Tool name "${name}" ends with "${edge}", which some clients misparse`);
  }
  if (!ALLOWED.test(name)) {
    const invalid = [...new Set(name.replace(/[A-Za-z0-9_.-]/g, ''))].map((char) => JSON.stringify(char)).join(', ');
    return {
      ok: false,
      reason: `Tool name "${name}" contains ${invalid}; only ASCII letters, digits, "_", "-" and "." are allowed`,
      warnings,
    };
  }
  return { ok: true, warnings };
}
