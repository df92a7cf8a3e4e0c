// A small type-level reading of plain JSON Schema objects, so handlers registered with a JSON Schema get typed
// arguments. It covers what tool inputs use: object/properties/required, type, enum, const, array items, and falls back
// to `unknown` for anything else. A schema written inline in `registerTool` is read as if it were declared `as const`
// (a `const` type parameter); one held in a variable without `as const` has widened types (`type: string`), so only
// its property names are known, each optional and `unknown`.

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type Primitive<T> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? unknown[]
          : T extends 'object'
            ? Record<string, unknown>
            : unknown;

// A widened `required: string[]` says nothing about which keys: none is taken as required.
type RequiredKeys<S> = S extends { required: readonly (infer K)[] } ? (string extends K ? never : K & string) : never;

type InferObject<S> = S extends { properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P & RequiredKeys<S>]: InferJsonSchema<P[K]> } & {
        -readonly [K in Exclude<keyof P, RequiredKeys<S>>]?: InferJsonSchema<P[K]>;
      }
    >
  : Record<string, unknown>;

/**
 * The TypeScript type a plain JSON Schema (declared `as const`) describes.
 *
 * @example
 * const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } as const;
 * type Args = InferJsonSchema<typeof schema>; // { city: string; days?: number }
 */
export type InferJsonSchema<S> = S extends { const: infer C }
  ? C
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { type: 'object' }
      ? InferObject<S>
      : S extends { type: 'array'; items: infer I }
        ? InferJsonSchema<I>[]
        : S extends { type: readonly (infer T)[] }
          ? Primitive<T>
          : S extends { type: infer T }
            ? string extends T
              ? S extends { properties: object }
                ? InferObject<S>
                : unknown
              : Primitive<T>
            : S extends { properties: object }
              ? InferObject<S>
              : unknown;
