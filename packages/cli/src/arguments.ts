import { readFileSync } from 'node:fs';
import { CliError } from './exit-codes';
import type { ObjectSchema } from './schema-prompts';

/**
 * Reads `--arg name=value` flags into an arguments object. A value is JSON when it parses as JSON (`n=3`,
 * `tags=["a","b"]`, `flag=true`) unless the schema says the property is a string, which keeps it as typed;
 * `name=@path` reads the file (JSON when it parses, else its text). `--args` gives the whole object as JSON (or
 * `@path`), and `--arg` flags are laid over it.
 *
 * @example
 * parseArguments(['city=Paris', 'days=2'], undefined, schema); // { city: 'Paris', days: 2 }
 */
export function parseArguments(
  pairs: readonly string[],
  whole: string | undefined,
  schema: ObjectSchema | undefined,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (whole !== undefined) {
    const parsed = parseJson(readMaybeFile(whole), '--args');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new CliError('usage', '--args must be a JSON object, e.g. --args \'{"city":"Paris"}\'');
    }
    Object.assign(values, parsed);
  }
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new CliError('usage', `--arg expects name=value, got "${pair}"`);
    const name = pair.slice(0, equals);
    const text = readMaybeFile(pair.slice(equals + 1));
    values[name] = isStringProperty(schema, name) ? text : jsonOrText(text);
  }
  return values;
}

function readMaybeFile(value: string): string {
  if (!value.startsWith('@')) return value;
  const path = value.slice(1);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError('usage', `Cannot read ${path}: ${(error as Error).message}`);
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError('usage', `${what} is not valid JSON: ${(error as Error).message}`);
  }
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isStringProperty(schema: ObjectSchema | undefined, name: string): boolean {
  const property = schema?.properties?.[name] as { type?: unknown; enum?: unknown[] } | undefined;
  if (property === undefined) return false;
  if (property.type === 'string') return true;
  return Array.isArray(property.enum) && property.enum.every((value) => typeof value === 'string');
}
