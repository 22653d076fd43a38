import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** The merchant's site on loopback: every path answers "Thanks from the shop" and is recorded. */
export interface Shop {
  /** `http://127.0.0.1:<port>`, for a checkout's `success_url`. */
  url: string;
  /** The paths (with their query) it served, in order. */
  visits: string[];
  close(): Promise<void>;
}

/** Starts the merchant's site that a checkout's success URL leads to. */
export async function startShop(): Promise<Shop> {
  const visits: string[] = [];
  const server = createServer((req, res) => {
    visits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Thanks</title><h1>Thanks from the shop</h1>');
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    visits,
    close: () => new Promise<void>(resolve => server.close(() => resolve())),
  };
}
