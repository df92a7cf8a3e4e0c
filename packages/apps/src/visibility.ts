import type { AppToolUiMeta, ToolVisibility } from './spec';

/** A tool definition as far as visibility goes: its `_meta`. */
export interface ToolWithMeta {
  name?: string;
  _meta?: { [key: string]: unknown };
}

/**
 * The visibility of a tool definition: `_meta.ui.visibility`, or the spec's default `["model", "app"]`.
 *
 * @example
 * ```ts
 * visibilityOf({ name: 'refresh', _meta: { ui: { visibility: ['app'] } } }); // ['app']
 * ```
 */
export function visibilityOf(tool: ToolWithMeta): ToolVisibility[] {
  const ui = tool._meta?.ui as AppToolUiMeta | undefined;
  return Array.isArray(ui?.visibility) ? ui.visibility : ['model', 'app'];
}

/** True when the model may see and call the tool; a host lists only these to its model. */
export function visibleToModel(tool: ToolWithMeta): boolean {
  return visibilityOf(tool).includes('model');
}

/** True when a view may call the tool. */
export function visibleToApp(tool: ToolWithMeta): boolean {
  return visibilityOf(tool).includes('app');
}
