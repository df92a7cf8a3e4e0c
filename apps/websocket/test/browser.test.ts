import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHROMIUM, chromiumInstalled, launchChromium } from '@mcpkit/testkit/chromium';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, start } from '../src/start';

// The page is tested in Debian's Chromium, driven by playwright-core (tools/testkit's launcher).
const installed = chromiumInstalled;
const inCi = Boolean(process.env.CI);
const WAIT_MS = 15_000;

if (!installed && !inCi) {
  console.warn(
    `[apps/websocket] skipping the browser tests: no Chromium at ${CHROMIUM}. Install Debian's package to run them: ` +
      'apt-get install chromium',
  );
}

it.runIf(!installed && inCi)('CI has Chromium for the browser tests', () => {
  throw new Error(
    `No Chromium at ${CHROMIUM}: .ci/run must install Debian's chromium package before npm test ` +
      '(apt-get install -y chromium); the browser page of apps/websocket is tested in it.',
  );
});

describe.runIf(installed)('the browser page, in headless Chromium', () => {
  let app: RunningApp;
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    app = await start({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
  });

  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function open(url: URL): Promise<Page> {
    const page = await browser.newPage();
    pages.push(page);
    page.setDefaultTimeout(WAIT_MS);
    await page.goto(url.href, { timeout: WAIT_MS });
    return page;
  }

  /** Waits until the page's script finished (done or error) and returns what it shows. */
  async function outcome(
    page: Page,
  ): Promise<{ state: string; status: string; tools: string[]; result: string; error: string }> {
    await page.waitForSelector('body[data-state="done"], body[data-state="error"]', { timeout: WAIT_MS });
    return {
      state: (await page.getAttribute('body', 'data-state')) ?? '',
      status: await page.textContent('#status').then((text) => text ?? ''),
      tools: await page.locator('#tools li').allTextContents(),
      result: await page.textContent('#result').then((text) => text ?? ''),
      error: await page.textContent('#error').then((text) => text ?? ''),
    };
  }

  it('connects in 2026-07-28, lists the tools and shows the echo result', async () => {
    const page = await open(app.pageUrl);
    const shown = await outcome(page);
    expect(shown.error).toBe('');
    expect(shown.state).toBe('done');
    expect(shown.status).toBe('connected, 2026-07-28 (modern era)');
    expect(shown.tools).toEqual(['echo: Returns the text it is given', 'add: Adds two numbers']);
    expect(shown.result).toBe('hello from the browser');
  });

  it('calls echo again with what the user typed', async () => {
    const page = await open(app.pageUrl);
    expect((await outcome(page)).state).toBe('done');
    await page.fill('#echo-text', 'typed in Chromium');
    await page.click('#echo-form button');
    await page.waitForFunction(
      () => document.getElementById('result')?.textContent === 'typed in Chromium',
      undefined,
      { timeout: WAIT_MS },
    );
    expect(await page.getAttribute('body', 'data-state')).toBe('done');
  });

  it('speaks the initialize era with ?era=legacy', async () => {
    const url = new URL(app.pageUrl);
    url.searchParams.set('era', 'legacy');
    const shown = await outcome(await open(url));
    expect(shown.error).toBe('');
    expect(shown.status).toBe('connected, 2025-11-25 (legacy era)');
    expect(shown.result).toBe('hello from the browser');
  });

  it('works from http://localhost:<port> too (the other name of the same page)', async () => {
    const url = new URL(app.pageUrl);
    url.hostname = 'localhost';
    const shown = await outcome(await open(url));
    expect(shown.error).toBe('');
    expect(shown.result).toBe('hello from the browser');
  });

  describe('a page of another origin', () => {
    let other: Server;
    beforeAll(async () => {
      // Another local site (a different port is a different origin): a loopback origin the transport's default
      // policy would let in, but this app allows only its own page.
      other = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>');
      });
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    });

    it('cannot open a WebSocket to /mcp (403 at upgrade)', async () => {
      const page = await open(new URL(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`));
      const refusals: string[] = [];
      page.on('console', (message) => refusals.push(message.text()));
      const outcomeOfSocket = await page.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const socket = new WebSocket(url, ['mcp']);
            socket.onopen = () => {
              socket.close();
              resolve('open');
            };
            socket.onerror = () => resolve('error');
            setTimeout(() => resolve('timeout'), 10_000);
          }),
        app.mcpUrl.href,
      );
      expect(outcomeOfSocket).toBe('error');
      // Chromium logs why the handshake failed; 403 is the origin check, not a network problem.
      await expect.poll(() => refusals.join('\n'), { timeout: 5_000 }).toMatch(/403/);
      expect(app.endpoint.connections).toBe(0);
    });
  });
});
