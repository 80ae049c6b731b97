import { chromium, type Browser } from 'playwright-core';

import { onPath, runsHere } from './system-packages.js';

/** Debian's Chromium (.ci/run installs it); the browser tests drive it with playwright-core. */
export const CHROMIUM = onPath('chromium') ?? '/usr/bin/chromium';

/** Browser tests run where Chromium is installed, and always in CI (where its absence is a failure). */
export const browserTestsRun = runsHere('chromium');

/**
 * Headless Chromium with nothing of its own on the network (no updates, sync or QUIC), so the
 * only requests a test sees are the page's.
 * @example const browser = await launchChromium(); const page = await browser.newPage();
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
