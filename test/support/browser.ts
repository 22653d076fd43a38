import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';

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

/**
 * What went wrong on a page served from `origin`: console errors, page errors, failed requests, 4xx/5xx
 * answers and any request to another origin (a CSP refusal or a CDN shows up here). The sign-in pages
 * have no icon, so the browser's own /favicon.ico request is not counted.
 */
export function pageProblems(page: Page, origin: string): string[] {
  const problems: string[] = [];
  const isIcon = (url: string) => url.endsWith('/favicon.ico');
  page.on('console', message => {
    if (message.type() === 'error' && !isIcon(message.location().url))
      problems.push(`${message.text()} ${message.location().url}`);
  });
  page.on('pageerror', error => problems.push(error.message));
  page.on('requestfailed', request => problems.push(`${request.url()} ${request.failure()?.errorText}`));
  page.on('request', request => {
    if (!request.url().startsWith(origin) && !/^(data|blob):/.test(request.url()))
      problems.push(`other origin: ${request.url()}`);
  });
  page.on('response', response => {
    if (response.status() >= 400 && !isIcon(response.url())) problems.push(`${response.status()} ${response.url()}`);
  });
  return problems;
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
