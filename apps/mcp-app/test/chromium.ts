// Debian's Chromium (package `chromium`) through playwright-core: Playwright's own browser download cannot work on
// these machines, so executablePath points at the system binary.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const installed = existsSync(CHROMIUM);
export const inCi = Boolean(process.env.CI);
export const WAIT_MS = 15_000;

/** Screenshots land here (gitignored): look at them when a browser test fails. */
export const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

// Background networking, component updates and sync reach out to Google at start; on a closed network those
// connections are refused by the dozen. --no-sandbox because CI runs as root.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launch(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS, timeout: 30_000 });
}

if (!installed && !inCi) {
  console.warn(`[apps/mcp-app] skipping the browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}
