// Builds valid instances of a type straight from an official schema.json (the oracle side of the agreement test):
// one instance per (anyOf choice, minimal/full) pair, so every branch and every optional key appears somewhere.

export type JsonSchema = { readonly [keyword: string]: unknown };

export interface SchemaDocument {
  readonly defs: Readonly<Record<string, JsonSchema>>;
  readonly defsKeyword: '$defs' | 'definitions';
}

interface Options {
  readonly full: boolean;
  readonly choice: number;
  readonly depth: number;
}

const MAX_FULL_DEPTH = 7;

function resolve(document: SchemaDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < 20 && typeof current.$ref === 'string'; hops++) {
    const name = (current.$ref as string).split('/').pop() ?? '';
    const target = document.defs[name];
    if (target === undefined) throw new Error(`unresolved $ref ${String(current.$ref)}`);
    current = target;
  }
  return current;
}

function sampleString(schema: JsonSchema, choice: number): string {
  switch (schema.format) {
    case 'uri':
      return 'https://example.com/resource';
    case 'uri-template':
      return 'file:///{path}';
    case 'byte':
      return 'aGVsbG8=';
    default:
      return choice % 2 === 0 ? 'sample' : 'other sample';
  }
}

function merge(target: unknown, source: unknown): unknown {
  if (
    typeof target === 'object' &&
    target !== null &&
    !Array.isArray(target) &&
    typeof source === 'object' &&
    source !== null &&
    !Array.isArray(source)
  ) {
    const result: Record<string, unknown> = { ...(target as Record<string, unknown>) };
    for (const [key, value] of Object.entries(source)) result[key] = key in result ? merge(result[key], value) : value;
    return result;
  }
  return source;
}

function generate(document: SchemaDocument, raw: JsonSchema, options: Options): unknown {
  const schema = resolve(document, raw);
  const full = options.full && options.depth < MAX_FULL_DEPTH;
  const next: Options = { ...options, full, depth: options.depth + 1 };
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[options.choice % schema.enum.length];
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as JsonSchema[];
    return generate(document, branches[options.choice % branches.length]!, next);
  }
  if (Array.isArray(schema.allOf)) {
    let result: unknown = {};
    for (const part of schema.allOf as JsonSchema[]) result = merge(result, generate(document, part, next));
    return result;
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const type = types[options.choice % types.length] ?? (schema.properties !== undefined ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
      for (const [key, property] of Object.entries(properties)) {
        if (required.has(key) || full) result[key] = generate(document, property, next);
      }
      for (const key of required) if (!(key in result)) result[key] = 'required-but-undeclared';
      const extra = schema.additionalProperties;
      if (full && typeof extra === 'object' && extra !== null) {
        result['extra-key'] = generate(document, extra as JsonSchema, next);
      } else if (full && extra === undefined && Object.keys(properties).length > 0) {
        result.vendorExtension = { note: 'unknown keys are allowed' };
      }
      return result;
    }
    case 'array': {
      if (!full || schema.items === undefined) return [];
      const items = schema.items as JsonSchema;
      const resolved = resolve(document, items);
      const count = Array.isArray(resolved.anyOf) ? Math.min(resolved.anyOf.length, 6) : 1;
      const limit = typeof schema.maxItems === 'number' ? schema.maxItems : count;
      return Array.from({ length: Math.min(count, limit) }, (_, index) =>
        generate(document, items, { ...next, choice: options.choice + index }),
      );
    }
    case 'string':
      return sampleString(schema, options.choice);
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum + 1 : 3;
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
      const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      if (min !== undefined && max !== undefined) return (min + max) / 2;
      return min !== undefined ? min + 0.5 : 2.5;
    }
    case 'boolean':
      return options.choice % 2 === 0;
    case 'null':
      return null;
    default:
      // `{}`: any value.
      return full ? { anything: ['goes', 1, true] } : 'anything';
  }
}

/** Valid instances of `$defs/<name>` (a few dozen at most, deduplicated). */
export function instancesOf(document: SchemaDocument, name: string): unknown[] {
  const schema = document.defs[name];
  if (schema === undefined) throw new Error(`no type ${name}`);
  const seen = new Set<string>();
  const result: unknown[] = [];
  for (let choice = 0; choice < 8; choice++) {
    for (const full of [false, true]) {
      const value = generate(document, schema, { full, choice, depth: 0 });
      const key = JSON.stringify(value);
      if (!seen.has(key)) {
        seen.add(key);
        result.push(value);
      }
    }
  }
  return result;
}
