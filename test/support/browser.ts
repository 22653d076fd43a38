import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's headless Chromium for the browser tests (playwright-core drives it; no browser download):
 * no sandbox (CI runs as root), no GPU, and none of the background traffic a fresh profile starts
 * (QUIC, component updates, sync), so a page's requests are the test's own.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
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
