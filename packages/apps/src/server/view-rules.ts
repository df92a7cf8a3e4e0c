import { AppsError } from '../apps-error';
import type { AppCsp, AppPermissions, AppResourceUiMeta, ToolVisibility } from '../spec';

// The registration rules of SEP-1865, checked once when a view or a tool is registered, so a mistake surfaces at start
// with the name and the field, not as a blank iframe in some host.

const CSP_FIELDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
const VISIBILITIES: readonly ToolVisibility[] = ['model', 'app'];
// A CSP source goes verbatim into a policy: whitespace, ';' or ',' would start another source or directive, and a
// quote would make a keyword ('unsafe-eval'). An origin or a wildcard host pattern needs none of them.
const CSP_SOURCE = /^[^\s;,'"]+$/;

function viewError(name: string, field: string, message: string, value: unknown): AppsError {
  return new AppsError('ERR_INVALID_VIEW', `registerView('${name}'): ${field} ${message}`, {
    view: name,
    field,
    value,
  });
}

/** Refuses a view URI that is not `ui://…` (the spec reserves that scheme for views and requires it). */
export function checkViewUri(name: string, uri: unknown): string {
  if (typeof uri !== 'string' || !uri.startsWith('ui://') || uri.length === 'ui://'.length) {
    throw viewError(name, 'uri', `must be a ui:// URI (like 'ui://my-server/chart'), got ${JSON.stringify(uri)}`, uri);
  }
  return uri;
}

/** Checks `_meta.ui` of a view and returns a copy holding only the fields the spec defines. */
export function checkViewUiMeta(name: string, meta: AppResourceUiMeta): AppResourceUiMeta {
  const checked: AppResourceUiMeta = {};
  if (meta.csp !== undefined) {
    if (typeof meta.csp !== 'object' || meta.csp === null) throw viewError(name, 'csp', 'must be an object', meta.csp);
    const csp: AppCsp = {};
    for (const key of Object.keys(meta.csp)) {
      if (!(CSP_FIELDS as readonly string[]).includes(key)) {
        throw viewError(name, `csp.${key}`, `is not a CSP field of MCP Apps (${CSP_FIELDS.join(', ')})`, key);
      }
    }
    for (const field of CSP_FIELDS) {
      const list = meta.csp[field];
      if (list === undefined) continue;
      if (!Array.isArray(list)) throw viewError(name, `csp.${field}`, 'must be an array of origins', list);
      for (const source of list) {
        if (typeof source !== 'string' || !CSP_SOURCE.test(source)) {
          throw viewError(
            name,
            `csp.${field}`,
            `holds ${JSON.stringify(source)}, which is not an origin (no spaces, ';', ',' or quotes)`,
            source,
          );
        }
      }
      csp[field] = [...list];
    }
    checked.csp = csp;
  }
  if (meta.permissions !== undefined) {
    if (typeof meta.permissions !== 'object' || meta.permissions === null) {
      throw viewError(name, 'permissions', 'must be an object', meta.permissions);
    }
    const permissions: AppPermissions = {};
    for (const key of Object.keys(meta.permissions)) {
      if (!(PERMISSIONS as readonly string[]).includes(key)) {
        throw viewError(name, `permissions.${key}`, `is not a permission of MCP Apps (${PERMISSIONS.join(', ')})`, key);
      }
      permissions[key as (typeof PERMISSIONS)[number]] = {};
    }
    checked.permissions = permissions;
  }
  if (meta.domain !== undefined) {
    if (typeof meta.domain !== 'string' || !CSP_SOURCE.test(meta.domain)) {
      throw viewError(name, 'domain', 'must be a host name string', meta.domain);
    }
    checked.domain = meta.domain;
  }
  if (meta.prefersBorder !== undefined) {
    if (typeof meta.prefersBorder !== 'boolean') {
      throw viewError(name, 'prefersBorder', 'must be a boolean', meta.prefersBorder);
    }
    checked.prefersBorder = meta.prefersBorder;
  }
  return checked;
}

/** Checks a tool's visibility: a non-empty list of `"model"` and `"app"`, each at most once. */
export function checkVisibility(tool: string, visibility: unknown): ToolVisibility[] {
  const fail = (message: string) =>
    new AppsError('ERR_INVALID_APP_TOOL', `registerAppTool('${tool}'): _meta.ui.visibility ${message}`, {
      tool,
      field: '_meta.ui.visibility',
      value: visibility,
    });
  if (!Array.isArray(visibility) || visibility.length === 0) {
    throw fail(`must be a non-empty array of "model" and "app", got ${JSON.stringify(visibility)}`);
  }
  for (const value of visibility) {
    if (!VISIBILITIES.includes(value)) {
      throw fail(`holds ${JSON.stringify(value)}; the values are "model" (the agent) and "app" (the view)`);
    }
  }
  if (new Set(visibility).size !== visibility.length) throw fail('lists a value twice');
  return [...visibility];
}
