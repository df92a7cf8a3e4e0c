/** One rule of a filter: an exact name, a glob with `*` (any run of characters), a RegExp or a predicate. */
export type NameRule = string | RegExp | ((name: string) => boolean);

/**
 * Which items of an upstream a mount exposes: those `allow` matches (everything when absent) that `deny` does not.
 * Rules see upstream names (tools, prompts) and upstream URIs or URI templates (resources).
 *
 * @example
 * { allow: ['get_*'], deny: [/delete/] }
 */
export interface ItemFilter {
  allow?: readonly NameRule[];
  deny?: readonly NameRule[];
}

function matches(rule: NameRule, name: string): boolean {
  if (typeof rule === 'function') return rule(name);
  if (rule instanceof RegExp) {
    rule.lastIndex = 0;
    return rule.test(name);
  }
  if (!rule.includes('*')) return rule === name;
  const parts = rule.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's').test(name);
}

/** Whether `filter` lets `name` through. */
export function passes(filter: ItemFilter | undefined, name: string): boolean {
  if (filter === undefined) return true;
  if (filter.allow !== undefined && !filter.allow.some((rule) => matches(rule, name))) return false;
  return filter.deny === undefined || !filter.deny.some((rule) => matches(rule, name));
}
