import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMcpApp, start } from '../src/start';
import { ARTIFACTS, CHROMIUM, inCi, installed, launch, WAIT_MS } from './chromium';

// The sample end to end in headless Chromium: the host page connects over Streamable HTTP, renders a view (built by
// Vite) in the double iframe (the proxy on the other port's origin) and the view works through the host bridge.

it.runIf(!installed && inCi)('CI has Chromium for the browser tests', () => {
  throw new Error(`No Chromium at ${CHROMIUM}: .ci/run must install Debian's chromium package before npm test`);
});

describe.runIf(installed)('the sample host and views, in headless Chromium', () => {
  let app: RunningMcpApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([start({ port: 0, sandboxPort: 0 }), launch()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function open(query: Record<string, string>): Promise<Page> {
    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    const url = new URL(app.pageUrl);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    await page.goto(url.href);
    await page.waitForSelector('body[data-state="ready"], body[data-state="error"]');
    expect(await page.textContent('#status')).not.toMatch(/^error/);
    return page;
  }

  const events = (page: Page) => page.evaluate(() => window.mcpHost.events);

  it('renders the chart view: input, result, an app-only tool, an intercepted link, size changes, teardown', async () => {
    const page = await open({ tool: 'show_sales', args: JSON.stringify({ region: 'EU' }) });
    expect(await page.locator('#tools li').allTextContents()).toEqual(['show_sales', 'take_note']);
    const view = page.frameLocator('#view iframe').frameLocator('iframe');
    await expect.poll(() => view.locator('#status').textContent()).toBe('result received');
    expect(await view.locator('#input').textContent()).toBe('input: {"region":"EU"}');
    expect(await view.locator('.row').count()).toBe(6);
    expect(await view.locator('#title').textContent()).toBe('Sales, EU');

    await view.locator('#refresh').click();
    await expect.poll(() => view.locator('#status').textContent()).toBe('refreshed by refresh_sales');
    await view.locator('#docs').click();
    await expect.poll(() => view.locator('#status').textContent()).toBe('link opened by the host');
    await page.screenshot({ path: join(ARTIFACTS, 'sample-chart.png'), fullPage: true });

    const seen = await events(page);
    expect(seen).toContainEqual({ kind: 'open-link', detail: 'https://modelcontextprotocol.io/extensions/apps' });
    const sizes = seen.filter((event) => event.kind === 'size').map((event) => event.detail as number);
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.at(-1)).toBeGreaterThan(150); // six bars, a heading and the buttons
    expect(seen.filter((event) => event.kind === 'rejected' || event.kind === 'error')).toEqual([]);

    // A message that does not come from the view's frame is dropped and reported, never served.
    const calls = app.notes.length;
    await page.evaluate(() =>
      window.postMessage(
        { jsonrpc: '2.0', id: 'rogue', method: 'tools/call', params: { name: 'save_note', arguments: { title: 'x' } } },
        '*',
      ),
    );
    await expect
      .poll(async () => (await events(page)).filter((event) => event.kind === 'rejected'))
      .toEqual([{ kind: 'rejected', detail: { reason: 'source', origin: app.pageUrl.origin } }]);
    expect(app.notes.length).toBe(calls);

    expect(await page.evaluate(() => window.mcpHost.teardown())).toBe('answered');
    expect(await page.locator('#view iframe').count()).toBe(0);
    await page.close();
  });

  it('renders the form view in 2025-11-25; the form saves through the app-only save_note', async () => {
    const page = await open({ tool: 'take_note', args: JSON.stringify({ title: 'Groceries' }), era: 'legacy' });
    expect(await page.textContent('#status')).toBe('connected, 2025-11-25');
    const view = page.frameLocator('#view iframe').frameLocator('iframe');
    await expect.poll(() => view.locator('#note-title').inputValue()).toBe('Groceries');
    await view.locator('#note-text').fill('milk, bread');
    await view.locator('button[type="submit"]').click();
    await expect.poll(() => view.locator('#status').textContent()).toMatch(/^Saved note \d+: Groceries$/);
    expect(app.notes).toContainEqual({ title: 'Groceries', text: 'milk, bread' });
    await expect.poll(async () => (await events(page)).some((event) => event.kind === 'model-context')).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'sample-form.png'), fullPage: true });
    expect(await page.evaluate(() => window.mcpHost.teardown())).toBe('answered');
    await page.close();
  });
});
