import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleBrowserScript } from '../src/host-bundle';
import { type RunningMcpApp, start } from '../src/start';
import { ARTIFACTS, installed, launch, WAIT_MS } from './chromium';

// Interop with the official @modelcontextprotocol/ext-apps (2.0.4), both ways, in headless Chromium:
// 1. our host (mountAppView + AppBridge, double iframe) renders a view written with the official `App`;
// 2. the official `AppBridge` renders a view written with @mcpkit/apps/view (the sample's chart).
// In both the view gets the tool's input and result, calls a server tool, opens a link (intercepted by the host),
// changes its size, and is torn down.

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

async function officialViewHtml(): Promise<string> {
  const [html, script] = await Promise.all([
    readFile(fixture('official-view.html'), 'utf8'),
    bundleBrowserScript(fixture('official-view.ts')),
  ]);
  // Inline, as a view must be one file; `</script` inside the bundle would end the element early.
  return html.replace('/*SCRIPT*/', () => script.replace(/<\/script/gi, '<\\/script'));
}

describe.runIf(installed)('interop with @modelcontextprotocol/ext-apps in headless Chromium', () => {
  let app: RunningMcpApp;
  let browser: Browser;

  beforeAll(async () => {
    const [viewHtml, hostScript] = await Promise.all([
      officialViewHtml(),
      bundleBrowserScript(fixture('official-host.ts')),
    ]);
    [app, browser] = await Promise.all([
      start({
        port: 0,
        sandboxPort: 0,
        configure: (apps) => {
          apps.registerView('official-view', 'ui://interop/official-view', { html: viewHtml });
          apps.registerAppTool('official_demo', { view: 'ui://interop/official-view' }, () => ({
            content: [{ type: 'text', text: 'demo' }],
            structuredContent: { answer: 42 },
          }));
          apps.registerAppTool('model_only_tool', { visibility: ['model'] }, () => ({ content: [] }));
        },
        pages: {
          '/official-host.html': {
            type: 'text/html; charset=utf-8',
            body: '<!doctype html><html><body data-state="starting"><h1>Official AppBridge host</h1><div id="view"></div><script type="module" src="/official-host.js"></script></body></html>',
          },
          '/official-host.js': { type: 'text/javascript; charset=utf-8', body: hostScript },
        },
      }),
      launch(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function open(url: URL): Promise<Page> {
    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url.href);
    await page.waitForSelector('body[data-state="ready"], body[data-state="error"]').catch(() => {
      throw new Error(`the page never got ready; page errors: ${errors.join('; ')}`);
    });
    return page;
  }

  it('our host bridge renders a view written with the official App', async () => {
    const url = new URL(app.pageUrl);
    url.searchParams.set('tool', 'official_demo');
    url.searchParams.set('args', JSON.stringify({ region: 'EU' }));
    const page = await open(url);
    const view = page.frameLocator('#view iframe').frameLocator('iframe');
    await expect.poll(() => view.locator('#status').textContent()).toBe('connected to mcpkit-sample-host');
    await expect.poll(() => view.locator('#result').textContent()).toBe('{"answer":42}');
    expect(await view.locator('#input').textContent()).toBe('{"region":"EU"}');

    await view.locator('#call').click();
    await expect.poll(() => view.locator('#called').textContent()).toBe('refreshed EU');
    await view.locator('#forbidden').click();
    await expect.poll(() => view.locator('#called').textContent()).toMatch(/^refused: .*visibility \["model"\]/);
    await view.locator('#link').click();
    await expect.poll(() => view.locator('#linked').textContent()).toBe('opened');
    const events = await page.evaluate(() => window.mcpHost.events);
    expect(events).toContainEqual({ kind: 'open-link', detail: 'https://example.com/official' });
    expect(events).toContainEqual({ kind: 'initialized', detail: expect.objectContaining({ name: 'official-view' }) });
    await expect
      .poll(async () =>
        (await page.evaluate(() => window.mcpHost.events))
          .filter((e) => e.kind === 'size')
          .map((e) => e.detail as number)
          .at(-1),
      )
      .toBeGreaterThan(200); // the 180px block the view grew after the result
    await page.screenshot({ path: join(ARTIFACTS, 'interop-official-view-in-mcpkit-host.png'), fullPage: true });
    expect(await page.evaluate(() => window.mcpHost.teardown())).toBe('answered');
    await page.close();
  });

  it('the official AppBridge renders a view written with @mcpkit/apps/view', async () => {
    const page = await open(new URL('/official-host.html', app.pageUrl));
    const view = page.frameLocator('#view iframe');
    await expect.poll(() => view.locator('#status').textContent()).toBe('result received');
    expect(await view.locator('#input').textContent()).toBe('input: {"region":"EU"}');
    expect(await view.locator('.row').count()).toBe(6);

    await view.locator('#refresh').click();
    await expect.poll(() => view.locator('#status').textContent()).toBe('refreshed by refresh_sales');
    await view.locator('#docs').click();
    await expect.poll(() => view.locator('#status').textContent()).toBe('link opened by the host');
    const events = await page.evaluate(() => window.officialHost.events);
    expect(events).toContainEqual(['initialized', 'sales-chart']);
    expect(events).toContainEqual(['tools/call', 'refresh_sales']);
    expect(events).toContainEqual(['open-link', 'https://modelcontextprotocol.io/extensions/apps']);
    const sizes = events.filter(([kind]) => kind === 'size').map(([, height]) => height as number);
    expect(sizes.at(-1)).toBeGreaterThan(150);
    await page.screenshot({ path: join(ARTIFACTS, 'interop-mcpkit-view-in-official-host.png'), fullPage: true });
    expect(await page.evaluate(() => window.officialHost.teardown())).toBe('answered');
    await expect.poll(() => view.locator('#status').textContent()).toBe('torn down');
    await page.close();
  });
});
