// Builds each view into one self-contained HTML file (MCP Apps serves a view as a single `text/html;profile=mcp-app`
// resource): Vite bundles the view's script, vite-plugin-singlefile inlines it and the styles into the page.
import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

const VIEWS = fileURLToPath(new URL('../views/', import.meta.url));

/** The names of the sample's views (`views/<name>.html`). */
export const VIEW_NAMES = ['chart', 'form'] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/**
 * Builds one view in memory and returns its HTML. Workspace packages resolve to their TypeScript source through the
 * `@mcpkit/source` condition, as in tests, so nothing needs a build first.
 *
 * @example
 * const html = await buildView('chart'); // '<!doctype html>…<script type="module">…</script>…'
 */
export async function buildView(name: ViewName): Promise<string> {
  const output = (await build({
    root: VIEWS,
    configFile: false,
    logLevel: 'silent',
    resolve: { conditions: ['@mcpkit/source', 'module', 'browser', 'import', 'default'] },
    plugins: [viteSingleFile()],
    build: { write: false, target: 'es2022', rollupOptions: { input: `${VIEWS}${name}.html` } },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const outputs = Array.isArray(output) ? output : [output];
  for (const chunk of outputs.flatMap((entry) => entry.output)) {
    if (chunk.type === 'asset' && chunk.fileName.endsWith('.html')) return String(chunk.source);
  }
  throw new Error(`buildView: Vite produced no HTML for ${name}`);
}

/** Builds every view, one after the other (each build is a full Vite run). */
export async function buildViews(): Promise<Record<ViewName, string>> {
  const views = {} as Record<ViewName, string>;
  for (const name of VIEW_NAMES) views[name] = await buildView(name);
  return views;
}
