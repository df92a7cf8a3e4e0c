import { namePattern } from '@mcpkit/server';

/** What one request needs beyond the connection's required scopes. */
export interface ScopeNeed {
  /** What is asked for: a tool, a prompt or a resource. */
  kind: 'tool' | 'prompt' | 'resource';
  /** The tool or prompt name, or the resource URI. */
  name: string;
  /** `requiredScopes` plus the item's own, without duplicates. */
  scopes: readonly string[];
}

/** Extra scopes per item: by exact name (or URI), glob (`delete_*`, `file:///private/*`) or list of either. */
export type ScopeRules = Readonly<Record<string, readonly string[]>>;

interface Rule {
  matches: (name: string) => boolean;
  scopes: readonly string[];
}

/** One kind's rules: exact names in a map, globs in the order written. */
interface Rules {
  exact: Map<string, readonly string[]>;
  globs: Rule[];
}

const RESOURCE_METHODS: ReadonlySet<string> = new Set([
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
]);

function compile(required: readonly string[], source: ScopeRules | undefined): Rules {
  const rules: Rules = { exact: new Map(), globs: [] };
  for (const [pattern, scopes] of Object.entries(source ?? {})) {
    const merged = [...new Set([...required, ...scopes])];
    if (pattern.includes('*')) rules.globs.push({ matches: namePattern(pattern), scopes: merged });
    else rules.exact.set(pattern, merged);
  }
  return rules;
}

/**
 * The per-item scope table of bearer auth, built once: `requiredScopes` merged into each item's list, so a check is
 * a map lookup (then a glob scan only for names no exact entry has). A Map, not the options object: a tool named
 * "constructor" must not find Object.prototype's.
 */
export class ScopeTable {
  readonly #tools: Rules;
  readonly #prompts: Rules;
  readonly #resources: Rules;

  constructor(
    requiredScopes: readonly string[],
    rules: { tools?: ScopeRules; prompts?: ScopeRules; resources?: ScopeRules },
  ) {
    this.#tools = compile(requiredScopes, rules.tools);
    this.#prompts = compile(requiredScopes, rules.prompts);
    this.#resources = compile(requiredScopes, rules.resources);
  }

  /** What a request needs, or `undefined` when it is not about a scoped tool, prompt or resource. */
  needOf(method: string, params: unknown): ScopeNeed | undefined {
    let kind: ScopeNeed['kind'];
    let rules: Rules;
    if (method === 'tools/call') [kind, rules] = ['tool', this.#tools];
    else if (method === 'prompts/get') [kind, rules] = ['prompt', this.#prompts];
    else if (RESOURCE_METHODS.has(method)) [kind, rules] = ['resource', this.#resources];
    else return undefined;
    if (rules.exact.size === 0 && rules.globs.length === 0) return undefined;
    const name = (params as Record<string, unknown> | undefined)?.[kind === 'resource' ? 'uri' : 'name'];
    if (typeof name !== 'string') return undefined;
    const scopes = rules.exact.get(name) ?? rules.globs.find((rule) => rule.matches(name))?.scopes;
    return scopes === undefined ? undefined : { kind, name, scopes };
  }
}
