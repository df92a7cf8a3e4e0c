import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';

// An error caught from the built package must print under its own name. esbuild turns a class that names itself in its
// body into `var JsonRpcError = class _JsonRpcError`, and `console.log(error)` then showed `_JsonRpcError`.
const root = join(import.meta.dirname, '..');
const dist = join(root, 'packages/jsonrpc-core/dist');

type Exports = Record<string, unknown>;

function errorClasses(exports: Exports): Array<[string, { name: string; prototype: unknown }]> {
  return Object.entries(exports).filter(
    (entry): entry is [string, { name: string; prototype: unknown }] =>
      typeof entry[1] === 'function' && (entry[1] as { prototype?: unknown }).prototype instanceof Error,
  );
}

describe('@mcpkit/jsonrpc-core built output: errors print under their own names', () => {
  const loaders: Array<[string, () => Promise<Exports>]> = [
    ['ESM', async () => (await import(pathToFileURL(join(dist, 'index.js')).href)) as Exports],
    ['CJS', async () => createRequire(import.meta.url)(join(dist, 'index.cjs')) as Exports],
  ];
  for (const [format, load] of loaders) {
    it(`${format}: console.log of a JsonRpcError shows JsonRpcError, and every exported error class keeps its name`, async () => {
      expect(existsSync(join(dist, 'index.js')), 'build the workspace first (npm test does)').toBe(true);
      const exports = await load();
      const JsonRpcError = exports.JsonRpcError as new (code: number, message: string) => Error;
      const printed = inspect(new JsonRpcError(-32603, 'boom'));
      expect(printed.split('\n')[0]).toBe('JsonRpcError: boom');
      const classes = errorClasses(exports);
      expect(classes.length).toBeGreaterThan(3);
      for (const [exported, value] of classes) expect(value.name, `${exported}'s class name`).toBe(exported);
      // The static factories still build instances of the class itself.
      const built = (exports.JsonRpcError as unknown as { methodNotFound(method: string): Error }).methodNotFound('x');
      expect(built).toBeInstanceOf(JsonRpcError);
      expect(inspect(built).split('\n')[0]).toBe('JsonRpcError: Method not found: x');
    });
  }
});
