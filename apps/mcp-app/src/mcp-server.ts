// The sample's MCP server: two tools that come with views (a sales chart, a note form) and two tools only those views
// may call (refresh_sales, save_note). Hosts without MCP Apps get text they can show instead.
import { AppsServer } from '@mcpkit/apps';
import { McpServer } from '@mcpkit/server';
import type { ViewName } from './build-views';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'];

/** Deterministic sales figures for a region (the sample has no database). */
export function salesOf(region: string, round = 0): { region: string; months: string[]; values: number[] } {
  let seed = [...region].reduce((sum, char) => sum + char.charCodeAt(0), round * 7);
  const values = MONTHS.map(() => {
    seed = (seed * 31 + 17) % 97;
    return 20 + seed;
  });
  return { region, months: MONTHS, values };
}

/**
 * Makes the sample server from the built views. `configure` may register more (the interop test adds a view written
 * with the official `App`).
 *
 * @example
 * const server = createMcpAppServer(await buildViews());
 */
export function createMcpAppServer(
  views: Record<ViewName, string>,
  configure?: (apps: AppsServer, server: McpServer) => void,
): { server: McpServer; apps: AppsServer; notes: Array<{ title: string; text: string }> } {
  const server = new McpServer({ name: 'mcpkit-mcp-app', version: '1.0.0' });
  const apps = new AppsServer(server);
  const notes: Array<{ title: string; text: string }> = [];

  apps.registerView('sales-chart', 'ui://mcp-app/sales-chart', {
    title: 'Sales chart',
    description: 'Monthly sales of a region as bars',
    html: views.chart,
    prefersBorder: true,
  });
  apps.registerView('note-form', 'ui://mcp-app/note-form', {
    title: 'Note form',
    description: 'A form that saves a note',
    html: views.form,
    prefersBorder: true,
  });

  const regionSchema = {
    type: 'object',
    properties: { region: { type: 'string', description: 'A sales region, such as EU or US' } },
    required: ['region'],
  } as const;
  apps.registerAppTool(
    'show_sales',
    {
      view: 'ui://mcp-app/sales-chart',
      description: 'Shows monthly sales of a region as a chart',
      inputSchema: regionSchema,
    },
    ({ region }) => {
      const sales = salesOf(region);
      return {
        // The text is what a host without MCP Apps shows, and what the model reads either way.
        content: [{ type: 'text', text: sales.months.map((month, i) => `${month} ${sales.values[i]}`).join(', ') }],
        structuredContent: sales,
      };
    },
  );
  let round = 0;
  apps.registerAppTool(
    'refresh_sales',
    {
      view: 'ui://mcp-app/sales-chart',
      visibility: ['app'],
      description: 'Fresh sales figures for the chart',
      inputSchema: regionSchema,
    },
    ({ region }) => {
      const sales = salesOf(region, ++round);
      return { content: [{ type: 'text', text: `refreshed ${region}` }], structuredContent: sales };
    },
  );
  apps.registerAppTool(
    'take_note',
    {
      view: 'ui://mcp-app/note-form',
      description: 'Opens a form where the user writes a note',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } } } as const,
    },
    ({ title }) => ({
      content: [{ type: 'text', text: `A note form is open${title ? ` for "${title}"` : ''}; the user saves it.` }],
    }),
  );
  apps.registerAppTool(
    'save_note',
    {
      view: 'ui://mcp-app/note-form',
      visibility: ['app'],
      description: 'Saves the note of the form',
      inputSchema: {
        type: 'object',
        properties: { title: { type: 'string', minLength: 1 }, text: { type: 'string' } },
        required: ['title'],
      } as const,
    },
    ({ title, text }) => {
      notes.push({ title, text: text ?? '' });
      return { content: [{ type: 'text', text: `Saved note ${notes.length}: ${title}` }] };
    },
  );
  configure?.(apps, server);
  return { server, apps, notes };
}
