// The browser tests' shared pieces: Debian's Chromium (tools/testkit's launcher), where screenshots go, how long to wait.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, chromiumInstalled, launchChromium } from '@mcpkit/testkit/chromium';
import type { Browser } from 'playwright-core';

export { CHROMIUM };
export const installed = chromiumInstalled;
export const inCi = Boolean(process.env.CI);
export const WAIT_MS = 15_000;

/** Screenshots land here (gitignored): look at them when a browser test fails. */
export const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

export async function launch(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return launchChromium();
}

if (!installed && !inCi) {
  console.warn(`[apps/mcp-app] skipping the browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}
