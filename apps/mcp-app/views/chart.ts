// The chart view: draws the bars of the tool's structuredContent, refreshes them through an app-only server tool, and
// asks the host to open a link (a sandboxed view cannot navigate on its own).
import { type AppToolResult, AppView } from '@mcpkit/apps/view';

interface Sales {
  region: string;
  months: string[];
  values: number[];
}

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const view = new AppView({ name: 'sales-chart', version: '1.0.0' });

function draw(result: AppToolResult): void {
  const sales = result.structuredContent as Sales | undefined;
  if (sales === undefined) return;
  $('title').textContent = `Sales, ${sales.region}`;
  const max = Math.max(1, ...sales.values);
  $('chart').replaceChildren(
    ...sales.months.map((month, i) => {
      const row = document.createElement('div');
      row.className = 'row';
      const value = sales.values[i] ?? 0;
      row.innerHTML = `<span class="label"></span><span class="bar" style="width:${Math.round((value / max) * 220)}px"></span><span class="value"></span>`;
      (row.children[0] as HTMLElement).textContent = month;
      (row.children[2] as HTMLElement).textContent = String(value);
      return row;
    }),
  );
}

view.ontoolinput = ({ arguments: args }) => {
  $('input').textContent = `input: ${JSON.stringify(args)}`;
};
view.ontoolresult = (result) => {
  draw(result);
  $('status').textContent = 'result received';
};
view.onhostcontextchanged = (context) => {
  if (context.theme !== undefined) document.body.classList.toggle('dark', context.theme === 'dark');
};
view.onteardown = () => {
  $('status').textContent = 'torn down';
};

$('refresh').addEventListener('click', async () => {
  try {
    const region = ($('title').textContent ?? '').replace('Sales, ', '') || 'EU';
    draw(await view.callServerTool({ name: 'refresh_sales', arguments: { region } }));
    $('status').textContent = 'refreshed by refresh_sales';
  } catch (error) {
    $('status').textContent = `refresh failed: ${(error as Error).message}`;
  }
});
$('docs').addEventListener('click', async (event) => {
  event.preventDefault();
  try {
    await view.openLink({ url: ($('docs') as HTMLAnchorElement).href });
    $('status').textContent = 'link opened by the host';
  } catch (error) {
    $('status').textContent = `link refused: ${(error as Error).message}`;
  }
});

const init = await view.connect();
document.body.classList.toggle('dark', init.hostContext.theme === 'dark');
$('status').textContent = `connected to ${init.hostInfo.name}`;
