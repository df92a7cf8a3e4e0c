// RFC 6570 URI templates, levels 1–4: expansion, and the reverse (matching a URI and extracting the variables), which
// resource templates need to route `resources/read`. Written here because no small, maintained library that runs
// everywhere does both.
import { defineCodedError } from '@mcpkit/jsonrpc-core';

/** A variable's value: a string, a list, or an associative array (RFC 6570 §2.3). */
export type UriTemplateValue = string | number | boolean | readonly string[] | Readonly<Record<string, string>>;

/** Variables extracted by `UriTemplate.match`: a string, or a list for exploded (`*`) variables. */
export type UriTemplateVariables = Record<string, string | string[]>;

interface VarSpec {
  name: string;
  explode: boolean;
  prefix: number | undefined;
}

interface Operator {
  first: string;
  sep: string;
  named: boolean;
  ifEmpty: string;
  allowReserved: boolean;
}

interface Expression {
  op: Operator;
  opChar: string;
  vars: VarSpec[];
}

type Part = string | Expression;

const OPERATORS: Record<string, Operator> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
};

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/** Thrown for a template that does not follow RFC 6570's grammar. */
export class UriTemplateError extends defineCodedError<'ERR_URI_TEMPLATE', { template: string; position?: number }>(
  'UriTemplateError',
  '@mcpkit/server/UriTemplateError',
) {
  constructor(message: string, data: { template: string; position?: number }) {
    super('ERR_URI_TEMPLATE', message, data);
  }
}

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf('{', index);
    const close = template.indexOf('}', index);
    if (close !== -1 && (open === -1 || close < open)) {
      throw new UriTemplateError(`URI template "${template}": unmatched "}" at ${close}`, {
        template,
        position: close,
      });
    }
    if (open === -1) {
      parts.push(template.slice(index));
      break;
    }
    if (open > index) parts.push(template.slice(index, open));
    const end = template.indexOf('}', open);
    if (end === -1) {
      throw new UriTemplateError(`URI template "${template}": "{" at ${open} is never closed`, {
        template,
        position: open,
      });
    }
    let body = template.slice(open + 1, end);
    let opChar = '';
    if (body !== '' && '+#./;?&'.includes(body[0]!)) {
      opChar = body[0]!;
      body = body.slice(1);
    } else if (body !== '' && '=,!@|'.includes(body[0]!)) {
      throw new UriTemplateError(`URI template "${template}": operator "${body[0]}" is reserved for future use`, {
        template,
        position: open + 1,
      });
    }
    const vars = body.split(',').map((spec): VarSpec => {
      let name = spec;
      let explode = false;
      let prefix: number | undefined;
      if (name.endsWith('*')) {
        explode = true;
        name = name.slice(0, -1);
      } else {
        const colon = name.indexOf(':');
        if (colon !== -1) {
          const length = name.slice(colon + 1);
          if (!/^[1-9]\d{0,3}$/.test(length)) {
            throw new UriTemplateError(`URI template "${template}": bad prefix length in "${spec}"`, { template });
          }
          prefix = Number(length);
          name = name.slice(0, colon);
        }
      }
      if (!VARNAME.test(name)) {
        throw new UriTemplateError(`URI template "${template}": "${spec}" is not a valid variable name`, { template });
      }
      return { name, explode, prefix };
    });
    parts.push({ op: OPERATORS[opChar]!, opChar, vars });
    index = end + 1;
  }
  return parts;
}

const utf8 = new TextEncoder();

function percentEncode(char: string): string {
  let out = '';
  for (const byte of utf8.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

function encode(value: string, allowReserved: boolean): string {
  let out = '';
  for (let index = 0; index < value.length; index++) {
    const char = value[index]!;
    if (UNRESERVED.test(char)) {
      out += char;
    } else if (
      allowReserved &&
      (RESERVED.test(char) || (char === '%' && /^%[0-9A-Fa-f]{2}/.test(value.slice(index))))
    ) {
      out += char;
    } else {
      const code = char.charCodeAt(0);
      // A surrogate pair is one character: encode both halves together.
      const whole =
        code >= 0xd800 && code <= 0xdbff && index + 1 < value.length ? value.slice(index, ++index + 1) : char;
      out += percentEncode(whole);
    }
  }
  return out;
}

function isDefined(value: UriTemplateValue | undefined | null): value is UriTemplateValue {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function expandExpression(expression: Expression, variables: Record<string, UriTemplateValue | undefined>): string {
  const { op } = expression;
  const pieces: string[] = [];
  for (const spec of expression.vars) {
    const value = variables[spec.name];
    if (!isDefined(value)) continue;
    const enc = (text: string) => encode(text, op.allowReserved);
    if (typeof value !== 'object') {
      let text = String(value);
      if (spec.prefix !== undefined) text = [...text].slice(0, spec.prefix).join('');
      if (op.named) pieces.push(text === '' ? `${spec.name}${op.ifEmpty}` : `${spec.name}=${enc(text)}`);
      else pieces.push(enc(text));
      continue;
    }
    const pairs: Array<[string, string]> | undefined = Array.isArray(value)
      ? undefined
      : Object.entries(value as Record<string, string>);
    const list = Array.isArray(value) ? (value as readonly string[]) : undefined;
    if (!spec.explode) {
      const joined =
        list !== undefined
          ? list.map(enc).join(',')
          : pairs!.map(([key, item]) => `${enc(key)},${enc(item)}`).join(',');
      pieces.push(op.named ? `${spec.name}=${joined}` : joined);
    } else if (list !== undefined) {
      for (const item of list) {
        if (op.named) pieces.push(item === '' ? `${spec.name}${op.ifEmpty}` : `${spec.name}=${enc(item)}`);
        else pieces.push(enc(item));
      }
    } else {
      for (const [key, item] of pairs!) {
        pieces.push(item === '' && op.named ? `${enc(key)}${op.ifEmpty}` : `${enc(key)}=${enc(item)}`);
      }
    }
  }
  return pieces.length === 0 ? '' : op.first + pieces.join(op.sep);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// What one expression can match, by operator. Simple expansion encodes reserved characters, so its values cannot
// contain "/", "?" or "#"; "+" and "#" may contain reserved characters.
function expressionPattern(expression: Expression): string {
  switch (expression.opChar) {
    case '':
      return '([^/?#&]*)';
    case '+':
      return '([^?#]*)';
    case '#':
      return '((?:#.*)?)';
    case '.':
      return '((?:\\.[^/?#]*)?)';
    case '/':
      return '((?:/[^?#]*)?)';
    case ';':
      return '((?:;[^/?#]*)?)';
    // Lazy, so a following {&…} expression gets its own pairs.
    case '?':
      return '((?:\\?[^#]*?)?)';
    default:
      return '((?:&[^#]*?)?)';
  }
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Assigns the text one expression matched to its variables; false when it cannot be decoded. */
function extract(expression: Expression, text: string, out: UriTemplateVariables): boolean {
  const { op, vars } = expression;
  if (text === '') {
    // `{name}` and `{+name}` match an empty segment: the value is '' (what TemplateVariables promises, a string).
    const only = vars.length === 1 ? vars[0]! : undefined;
    if (only !== undefined && !only.explode && op.first === '' && !op.named) out[only.name] = '';
    return true;
  }
  const body = op.first === '' ? text : text.slice(op.first.length);
  if (op.named) {
    for (const pair of body.split(op.sep)) {
      const equals = pair.indexOf('=');
      const name = decode(equals === -1 ? pair : pair.slice(0, equals));
      const raw = equals === -1 ? '' : pair.slice(equals + 1);
      if (name === undefined) return false;
      const spec = vars.find((candidate) => candidate.name === name);
      if (spec === undefined) continue;
      const value = decode(raw);
      if (value === undefined) return false;
      if (spec.explode) {
        const existing = out[name];
        if (Array.isArray(existing)) existing.push(value);
        else out[name] = [value];
      } else {
        out[name] = value;
      }
    }
    return true;
  }
  if (vars.length === 1) {
    const spec = vars[0]!;
    if (spec.explode) {
      const values: string[] = [];
      for (const item of body.split(op.sep)) {
        const value = decode(item);
        if (value === undefined) return false;
        values.push(value);
      }
      out[spec.name] = values;
      return true;
    }
    const value = decode(body);
    if (value === undefined) return false;
    out[spec.name] = value;
    return true;
  }
  const items = body.split(op.sep);
  for (let index = 0; index < vars.length && index < items.length; index++) {
    const spec = vars[index]!;
    const rest = spec.explode ? items.slice(index) : [items[index]!];
    const values: string[] = [];
    for (const item of rest) {
      const value = decode(item);
      if (value === undefined) return false;
      values.push(value);
    }
    out[spec.name] = spec.explode ? values : values[0]!;
    if (spec.explode) break;
  }
  return true;
}

/**
 * An RFC 6570 URI template (levels 1–4), parsed once: `expand` fills it in, `match` reads a URI back into variables.
 *
 * @example
 * const template = new UriTemplate('users://{id}/posts{?limit,tag*}');
 * template.expand({ id: 'ada', limit: '5', tag: ['x', 'y'] }); // 'users://ada/posts?limit=5&tag=x&tag=y'
 * template.match('users://ada/posts?limit=5'); // { id: 'ada', limit: '5' }
 * template.match('files:///etc'); // undefined
 */
export class UriTemplate {
  readonly template: string;
  /** The variable names, in order of appearance. */
  readonly variableNames: readonly string[];
  readonly #parts: Part[];
  readonly #expressions: Expression[];
  readonly #pattern: RegExp;

  constructor(template: string) {
    this.template = template;
    this.#parts = parse(template);
    this.#expressions = this.#parts.filter((part): part is Expression => typeof part !== 'string');
    this.variableNames = this.#expressions.flatMap((expression) => expression.vars.map((spec) => spec.name));
    const source = this.#parts
      .map((part) => (typeof part === 'string' ? escapeRegExp(part) : expressionPattern(part)))
      .join('');
    this.#pattern = new RegExp(`^${source}$`);
  }

  /** Whether the template has any expression (a plain URI has none). */
  get isTemplate(): boolean {
    return this.#expressions.length > 0;
  }

  /** Expands the template (RFC 6570 §3). Undefined, null and empty list values are skipped, as the RFC says. */
  expand(variables: Record<string, UriTemplateValue | undefined>): string {
    let out = '';
    for (const part of this.#parts) out += typeof part === 'string' ? part : expandExpression(part, variables);
    return out;
  }

  /**
   * Matches `uri` against the template and returns its variables, or `undefined` when it does not match. Exploded
   * variables (`{/path*}`, `{?tag*}`) come back as lists; variables absent from the URI are absent from the result.
   */
  match(uri: string): UriTemplateVariables | undefined {
    const found = this.#pattern.exec(uri);
    if (found === null) return undefined;
    const variables: UriTemplateVariables = {};
    for (let index = 0; index < this.#expressions.length; index++) {
      if (!extract(this.#expressions[index]!, found[index + 1] ?? '', variables)) return undefined;
    }
    return variables;
  }

  toString(): string {
    return this.template;
  }
}
