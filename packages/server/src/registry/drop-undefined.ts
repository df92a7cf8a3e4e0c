/**
 * Deletes the keys whose value is `undefined`, in place, and returns the object: wire definitions are built from
 * optional config fields, and an explicit `undefined` would survive into lists and break deep-equality checks.
 */
export function dropUndefined<T extends Record<string, unknown>>(object: T): T {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}
