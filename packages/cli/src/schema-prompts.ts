import { confirm, input, number, select } from '@inquirer/prompts';
import type { CliIo } from './io';

/** The parts of a JSON Schema property the prompts read. */
interface PropertySchema {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

/** An object schema: its properties and which are required. */
export interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: string[];
}

/**
 * Asks the user, in the terminal, for the properties of an object schema that `known` does not have yet: the
 * required ones, or every one when `all` is set. A string, number, integer or boolean gets the matching prompt; an
 * enum a list to pick from; anything else (objects, arrays) is typed as JSON.
 */
export async function promptForProperties(
  io: CliIo,
  schema: ObjectSchema,
  known: Record<string, unknown>,
  options: { all?: boolean; signal?: AbortSignal } = {},
): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = { ...known };
  const required = new Set(schema.required ?? []);
  const context = { input: io.stdin, output: io.stderr, signal: options.signal };
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    if (name in answers) continue;
    if (!options.all && !required.has(name)) continue;
    const property = (typeof raw === 'object' && raw !== null ? raw : {}) as PropertySchema;
    const isRequired = required.has(name);
    const label = `${property.title ?? name}${property.description ? ` (${property.description})` : ''}`;
    const value = await promptOne(label, property, isRequired, context);
    if (value !== undefined) answers[name] = value;
  }
  return answers;
}

type PromptContext = { input: CliIo['stdin']; output: CliIo['stderr']; signal?: AbortSignal };

async function promptOne(
  message: string,
  property: PropertySchema,
  required: boolean,
  context: PromptContext,
): Promise<unknown> {
  const choices = enumChoices(property);
  if (choices) {
    return await select(
      { message, choices, default: property.default === undefined ? undefined : property.default },
      context,
    );
  }
  const type = Array.isArray(property.type) ? property.type.find((entry) => entry !== 'null') : property.type;
  switch (type) {
    case 'boolean':
      return await confirm(
        { message, default: typeof property.default === 'boolean' ? property.default : false },
        context,
      );
    case 'number':
    case 'integer':
      return await number(
        {
          message,
          required,
          default: typeof property.default === 'number' ? property.default : undefined,
          min: property.minimum,
          max: property.maximum,
          step: type === 'integer' ? 1 : 'any',
        },
        context,
      );
    case 'string': {
      const text = await input(
        { message, required, default: typeof property.default === 'string' ? property.default : undefined },
        context,
      );
      return text === '' && !required ? undefined : text;
    }
    default: {
      const text = await input(
        {
          message: `${message} [JSON]`,
          required,
          default: property.default === undefined ? undefined : JSON.stringify(property.default),
          validate: (value) => {
            if (value === '' && !required) return true;
            try {
              JSON.parse(value);
              return true;
            } catch {
              return 'Type a JSON value, e.g. ["a","b"] or {"key":1}';
            }
          },
        },
        context,
      );
      return text === '' ? undefined : JSON.parse(text);
    }
  }
}

function enumChoices(property: PropertySchema): Array<{ value: unknown; name: string }> | undefined {
  if (Array.isArray(property.enum)) return property.enum.map((value) => ({ value, name: String(value) }));
  if (Array.isArray(property.oneOf) && property.oneOf.every((entry) => entry && 'const' in entry)) {
    return property.oneOf.map((entry) => ({ value: entry.const, name: entry.title ?? String(entry.const) }));
  }
  return undefined;
}

/** The required properties of `schema` that `values` lacks. */
export function missingRequired(schema: ObjectSchema, values: Record<string, unknown>): string[] {
  return (schema.required ?? []).filter((name) => !(name in values));
}
