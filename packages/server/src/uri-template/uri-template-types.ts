// The variables of a URI template, read from its string at the type level, so a template handler's `variables` are
// typed from `'users://{id}/posts{?limit,tag*}'` alone: `{ id: string; limit?: string; tag?: string[] }`.

type Operator = '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** The body of every `{…}` expression of a template. */
type Expressions<T extends string> = T extends `${string}{${infer Body}}${infer Rest}`
  ? Body | Expressions<Rest>
  : never;

type VarSpecs<List extends string> = List extends `${infer First},${infer Rest}` ? First | VarSpecs<Rest> : List;
type NameOf<Spec extends string> = Spec extends `${infer Name}*`
  ? Name
  : Spec extends `${infer Name}:${string}`
    ? Name
    : Spec;
type ValueOf<Spec extends string> = Spec extends `${string}*` ? string[] : string;

/** `{name}` and `{+name}` always match (an empty match is `''`); anything else may be absent from a URI. */
type AlwaysPresent<Body extends string> = Body extends `${Operator}${string}`
  ? Body extends `+${infer Spec}`
    ? Spec extends `${string},${string}` | `${string}*`
      ? never
      : Spec
    : never
  : Body extends `${string},${string}` | `${string}*`
    ? never
    : Body;

type WithoutOperator<Body extends string> = Body extends `${Operator}${infer Rest}` ? Rest : Body;
type SpecsOf<T extends string> = VarSpecs<WithoutOperator<Expressions<T>>>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The variables `UriTemplate.match` extracts for template `T`: `{name}` and `{+name}` as `string`, exploded variables
 * (`{/path*}`, `{?tag*}`) as `string[]`, and every other variable optional. A template that is not a string literal
 * gives `Record<string, string | string[]>`.
 *
 * @example
 * type Vars = TemplateVariables<'users://{id}/posts{?limit,tag*}'>; // { id: string; limit?: string; tag?: string[] }
 */
export type TemplateVariables<T extends string> = string extends T
  ? Record<string, string | string[]>
  : Simplify<
      { [Spec in AlwaysPresent<Expressions<T>> as NameOf<Spec>]: string } & {
        [Spec in Exclude<SpecsOf<T>, AlwaysPresent<Expressions<T>>> as NameOf<Spec>]?: ValueOf<Spec>;
      }
    >;

/** The variable names of template `T` (`string` for a template that is not a literal). */
export type TemplateVariableName<T extends string> = string extends T ? string : keyof TemplateVariables<T> & string;
