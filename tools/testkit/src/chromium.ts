import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';

// Debian's Chromium (package `chromium`), driven by playwright-core: Playwright's own browser download cannot work on
// these machines, so executablePath points at the system binary. `.ci/run` installs it; outside CI a machine without it
// skips the browser tests, saying so; in CI they fail, since a skipped browser suite would pass for the wrong reason.

/** Where Debian's package puts the binary. */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether the binary is there. */
export const chromiumInstalled = existsSync(CHROMIUM);

// Background networking, component updates and sync reach out to Google at start; on a closed network those
// connections are refused by the dozen. --no-sandbox because CI runs as root. Playwright adds --headless itself and
// launches with a new, empty profile directory of its own (it refuses --user-data-dir in `args`).
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches headless Debian Chromium with the flags this closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS, timeout: 30_000 });
}
