// The combinators of the validator kit: unions (with a discriminator table when the branches have one), allOf,
// refinements, and the entry points that run a validator. See kit.ts for the primitives and the object validator.
import { describeValue, keyPath, VALID, type ValidationIssue, type ValidationResult } from './issues.js';
import { ANY, kindOf, nullValue, OBJECT, typeIssue, type Validator } from './kit.js';

/** Finds a key every object branch requires with a distinct literal value: the union can then dispatch on it. */
function findDiscriminator(
  branches: readonly Validator[],
): { key: string; table: Map<unknown, Validator> } | undefined {
  const first = branches[0]?.fields;
  if (first === undefined) return undefined;
  for (const [key, field] of first) {
    if (!field.required || field.validator.literal === undefined) continue;
    const table = new Map<unknown, Validator>();
    for (const branch of branches) {
      const candidate = branch.fields?.get(key);
      if (candidate === undefined || !candidate.required || candidate.validator.literal === undefined) break;
      if (table.has(candidate.validator.literal)) break;
      table.set(candidate.validator.literal, branch);
    }
    if (table.size === branches.length) return { key, table };
  }
  return undefined;
}

function contradictsLiteral(branch: Validator, value: Record<string, unknown>): boolean {
  if (branch.fields === undefined) return false;
  for (const [key, field] of branch.fields) {
    const literalValue = field.validator.literal;
    if (literalValue !== undefined && value[key] !== undefined && value[key] !== literalValue) return true;
  }
  return false;
}

function declaredKeysPresent(branch: Validator, value: Record<string, unknown>): number {
  if (branch.fields === undefined) return 0;
  let count = 0;
  for (const key of branch.fields.keys()) if (value[key] !== undefined) count++;
  return count;
}

/**
 * Any of the branches (JSON Schema `anyOf`). When every branch that accepts objects is an object requiring the same
 * key with a distinct literal (content blocks by `type`, requests by `method`), the union dispatches on that key
 * instead of trying each branch; the verdict is the same, the cost is one lookup.
 * @example const ContentBlock = union([TextContent, ImageContent], { name: 'ContentBlock' });
 */
export function union(branches: readonly Validator[], options: { readonly name?: string } = {}): Validator {
  const expected = options.name ?? branches.map((branch) => branch.expected).join(' | ');
  let kinds = 0;
  for (const branch of branches) kinds |= branch.kinds;
  const objectBranches = branches.filter((branch) => (branch.kinds & OBJECT) !== 0);
  const otherBranches = branches.filter((branch) => (branch.kinds & OBJECT) === 0);
  const discriminator = objectBranches.length > 1 ? findDiscriminator(objectBranches) : undefined;
  const count = branches.length;
  const branchChecks = branches.map((branch) => branch.check);
  const otherChecks = otherBranches.map((branch) => branch.check);
  const tagChecks = new Map<unknown, (value: unknown) => boolean>();
  if (discriminator !== undefined) for (const [tag, branch] of discriminator.table) tagChecks.set(tag, branch.check);
  const tagKey = discriminator?.key ?? '';

  const check =
    discriminator === undefined
      ? (value: unknown): boolean => {
          for (let index = 0; index < count; index++) if (branchChecks[index]!(value)) return true;
          return false;
        }
      : (value: unknown): boolean => {
          if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
            const branchCheck = tagChecks.get((value as Record<string, unknown>)[tagKey]);
            return branchCheck?.(value) === true;
          }
          for (let index = 0; index < otherChecks.length; index++) if (otherChecks[index]!(value)) return true;
          return false;
        };

  const explain = (value: unknown, path: string, issues: ValidationIssue[]): void => {
    if (check(value)) return;
    const kind = kindOf(value);
    if (discriminator !== undefined && kind === OBJECT) {
      const record = value as Record<string, unknown>;
      const tag = record[discriminator.key];
      const branch = discriminator.table.get(tag);
      if (branch !== undefined) {
        branch.explain(value, path, issues);
        return;
      }
      const allowed = [...discriminator.table.keys()].map((key) => JSON.stringify(key)).join(' | ');
      issues.push(
        tag === undefined
          ? {
              path: keyPath(path, discriminator.key),
              code: 'missing_key',
              message: `missing required key "${discriminator.key}" (one of ${allowed})`,
            }
          : {
              path: keyPath(path, discriminator.key),
              code: 'invalid_value',
              message: `expected one of ${allowed}, got ${describeValue(tag)}`,
            },
      );
      return;
    }
    const candidates = branches.filter((branch) => (branch.kinds & kind) !== 0);
    if (candidates.length === 0) {
      issues.push(typeIssue(path, expected, value));
      return;
    }
    // Report the branch that came closest, usually the one the sender meant. A branch whose literal key (`mode`,
    // `type`…) is present with another value is out; then fewest issues wins, a missing key counting double, and a
    // tie goes to the branch that declares more of the keys the value has.
    const record = kind === OBJECT ? (value as Record<string, unknown>) : undefined;
    const plausible = candidates.filter((branch) => record === undefined || !contradictsLiteral(branch, record));
    let best: ValidationIssue[] | undefined;
    let bestScore = Number.POSITIVE_INFINITY;
    let bestKnown = -1;
    for (const candidate of plausible.length > 0 ? plausible : candidates) {
      const found: ValidationIssue[] = [];
      candidate.explain(value, path, found);
      let score = found.length;
      for (const issue of found) if (issue.code === 'missing_key') score++;
      const known = record === undefined ? 0 : declaredKeysPresent(candidate, record);
      if (score < bestScore || (score === bestScore && known > bestKnown)) {
        best = found;
        bestScore = score;
        bestKnown = known;
      }
    }
    if (candidates.length > 1) {
      issues.push({ path, code: 'no_match', message: `expected ${expected}; closest match failed as follows` });
    }
    issues.push(...(best ?? []));
  };

  return { check, explain, expected, kinds };
}

/** Every part must pass (JSON Schema `allOf`). */
export function allOf(parts: readonly Validator[], options: { readonly name?: string } = {}): Validator {
  const expected = options.name ?? parts.map((part) => part.expected).join(' & ');
  let kinds = ANY;
  for (const part of parts) kinds &= part.kinds;
  const count = parts.length;
  const partChecks = parts.map((part) => part.check);
  const check = (value: unknown): boolean => {
    for (let index = 0; index < count; index++) if (!partChecks[index]!(value)) return false;
    return true;
  };
  const explain = (value: unknown, path: string, issues: ValidationIssue[]): void => {
    // One part reporting "expected object" is enough; the other parts would only repeat it.
    if ((kindOf(value) & kinds) === 0) {
      issues.push(typeIssue(path, expected, value));
      return;
    }
    for (const part of parts) if (!part.check(value)) part.explain(value, path, issues);
  };
  return { check, explain, expected, kinds };
}

/**
 * `base` plus a rule the JSON Schema cannot express (e.g. "at least one of two keys"). The rule only runs on values
 * `base` accepts.
 * @example refine(InputRequiredResult, (r) => 'inputRequests' in r || 'requestState' in r, 'needs inputRequests or requestState')
 */
export function refine<T = Record<string, unknown>>(
  base: Validator,
  rule: (value: T) => boolean,
  message: string,
): Validator {
  const baseCheck = base.check;
  const check = (value: unknown): boolean => baseCheck(value) && rule(value as T);
  return {
    check,
    expected: base.expected,
    kinds: base.kinds,
    explain: (value, path, issues) => {
      if (!base.check(value)) base.explain(value, path, issues);
      else if (!rule(value as T)) issues.push({ path, code: 'invalid_value', message });
    },
  };
}

/**
 * A validator picked from the value itself, for rules JSON Schema's `anyOf` cannot state (2026-07-28:
 * `resultType: "input_required"` selects `InputRequiredResult`, anything else the complete result).
 * @example choose('CallToolResult', (v) => (isInputRequired(v) ? InputRequiredResult : CallToolResult))
 */
export function choose(expected: string, pick: (value: unknown) => Validator): Validator {
  return {
    check: (value) => pick(value).check(value),
    explain: (value, path, issues) => pick(value).explain(value, path, issues),
    expected,
    kinds: ANY,
  };
}

/** A validator that rejects every value with `message` (a branch of `choose` that is never allowed). */
export function reject(message: string): Validator {
  return {
    check: () => false,
    explain: (_value, path, issues) => {
      issues.push({ path, code: 'invalid_value', message });
    },
    expected: 'nothing',
    kinds: 0,
  };
}

/** `validator` under another name in messages (`expected ContentBlock`). */
export function named(name: string, validator: Validator): Validator {
  return { ...validator, expected: name };
}

/**
 * Runs a validator: the fast check, then, only if it failed, the explaining pass.
 * @example
 * const result = validate(object({ name: string() }), { name: 1 });
 * // { ok: false, issues: [{ path: '$.name', code: 'invalid_type', message: 'expected string, got integer' }] }
 */
export function validate(validator: Validator, value: unknown, path = '$'): ValidationResult {
  if (validator.check(value)) return VALID;
  return { ok: false, issues: explainAll(validator, value, path) };
}

/** The issues of a value known to be invalid (never empty). */
export function explainAll(validator: Validator, value: unknown, path = '$'): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  validator.explain(value, path, issues);
  // The two passes are kept in step by tests; this only guards against a future drift producing an empty report.
  if (issues.length === 0) issues.push({ path, code: 'invalid_value', message: `expected ${validator.expected}` });
  return issues;
}

/** `validator` or JSON `null` (JSON Schema `"type": [..., "null"]`). @example nullable(integer()) */
export function nullable(validator: Validator): Validator {
  return union([validator, nullValue()], { name: `${validator.expected} | null` });
}
