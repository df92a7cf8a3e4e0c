// Systematic mutations of a valid instance: drop each key, change each value's type, wrong enum/const values,
// numbers out of range or with a fraction, nulls, bad array items, extra keys. Whether a mutant is valid is not
// decided here: the official schema (ajv) is the oracle.

export interface Mutant {
  /** What was changed, e.g. `drop $.params.name` (used in failure reports). */
  readonly change: string;
  /** JSONPath of the changed location. */
  readonly path: string;
  readonly value: unknown;
}

const REPLACEMENTS: readonly unknown[] = [null, 'zzz-not-a-valid-value', 7, 2.5, -1, false, [], {}];
const BAD_ITEMS: readonly unknown[] = ['zzz', 7, null, {}];
const MAX_DEPTH = 9;
const DELETE = Symbol('delete');

type Segment = string | number;

interface Plan {
  readonly change: string;
  readonly segments: readonly Segment[];
  readonly edit: (node: unknown) => unknown;
}

/** JSONPath of a location, in the same notation as the validators' issues. */
export function renderPath(segments: readonly Segment[]): string {
  let path = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else path += /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  }
  return path;
}

/** A copy of `root` with the node at `segments` replaced by `edit(node)` (deleted when `edit` returns DELETE). */
function edited(root: unknown, segments: readonly Segment[], edit: (node: unknown) => unknown): unknown {
  if (segments.length === 0) return edit(root);
  const copy = structuredClone(root) as Record<Segment, unknown>;
  let parent = copy;
  for (let index = 0; index < segments.length - 1; index++)
    parent = parent[segments[index]!] as Record<Segment, unknown>;
  const last = segments[segments.length - 1]!;
  const replacement = edit(parent[last]);
  if (replacement === DELETE) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    parent[last] = replacement;
  }
  return copy;
}

function plan(seed: unknown): Plan[] {
  const plans: Plan[] = [];
  const visit = (node: unknown, segments: Segment[]): void => {
    const path = renderPath(segments);
    if (segments.length > 0) plans.push({ change: `drop ${path}`, segments, edit: () => DELETE });
    const current = JSON.stringify(node);
    for (const replacement of REPLACEMENTS) {
      if (JSON.stringify(replacement) === current) continue;
      plans.push({ change: `set ${path} = ${JSON.stringify(replacement)}`, segments, edit: () => replacement });
    }
    if (typeof node === 'string' && node.length > 0) {
      plans.push({ change: `alter ${path}`, segments, edit: () => `${node}X` });
    }
    if (typeof node === 'number') {
      plans.push({ change: `fraction ${path}`, segments, edit: () => node + 0.5 });
      plans.push({ change: `large ${path}`, segments, edit: () => node + 100 });
    }
    if (segments.length >= MAX_DEPTH) return;
    if (Array.isArray(node)) {
      for (const item of BAD_ITEMS) {
        plans.push({
          change: `push ${JSON.stringify(item)} to ${path}`,
          segments,
          edit: (array) => [...(array as unknown[]), item],
        });
      }
      for (const [index, item] of node.entries()) visit(item, [...segments, index]);
    } else if (typeof node === 'object' && node !== null) {
      plans.push({
        change: `extra key at ${path}`,
        segments,
        edit: (object) => ({ ...(object as object), zzzExtraKey: 1 }),
      });
      for (const [key, value] of Object.entries(node)) visit(value, [...segments, key]);
    }
  };
  visit(seed, []);
  return plans;
}

/** Mutants of `seed`, at most `limit`, taken evenly across the instance (so deep and shallow changes both appear). */
export function mutantsOf(seed: unknown, limit: number): Mutant[] {
  const plans = plan(seed);
  const chosen =
    plans.length <= limit
      ? plans
      : Array.from({ length: limit }, (_, index) => plans[Math.floor((index * plans.length) / limit)]!);
  return chosen.map(({ change, segments, edit }) => ({
    change,
    path: renderPath(segments),
    value: edited(seed, segments, edit),
  }));
}
