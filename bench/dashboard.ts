// The dashboard part of `npm run bench` (target d): the server time of the merchant dashboard's pages
// (docs/dashboard.md) over one organization seeded like the metrics target's (bench/seed-metrics.ts;
// BENCH_DASHBOARD_ORDERS, default 1,000,000 orders; BENCH_DASHBOARD_SUBSCRIPTIONS, 100,000 subscriptions;
// BENCH_DASHBOARD_CHECKOUTS, 100,000 checkouts; a tenth of each with --quick), signed in as its owner
// through `/login` as a browser is. Each page is fetched by BENCH_DASHBOARD_LOOPS (1) loops for the bench's
// seconds; a request's time runs until its whole body has arrived over loopback. The overview's goal is the
// issue's: under 200 ms at that size.
import pg from 'pg';
import { loops, type Run } from './metrics.js';
import { seedMetrics } from './seed-metrics.js';
import type { Goal } from './subscriptions.js';
import { table } from './support.js';
import type { Tenant } from './tenant.js';

const OVERVIEW_GOAL_MS = 200;
/** The dashboard's list pages show 20 rows (rest-adapter/web/dashboard/subscriptions.ts). */
const PAGE_SIZE = 20;

/**
 * The seeded tables vacuumed and the seeding's dirty pages written out before timing, as a long-lived
 * database would be (the subscriptions target's reason, docs/performance.md); the checkpoint needs a
 * superuser or pg_checkpoint and is skipped without.
 */
async function settle(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('vacuum billing.orders, billing.subscriptions, billing.checkouts, billing.customers');
    await client.query('checkpoint').catch(() => undefined);
  } finally {
    await client.end();
  }
}

/** Signs in through the sign-in page (its CSRF token and session cookie) and returns the cookie header. */
async function signIn(baseUrl: string, tenant: Tenant): Promise<string> {
  const form = await fetch(`${baseUrl}/login`, { redirect: 'manual' });
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0];
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  };
  keep(form);
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!csrf) throw new Error('(d) the sign-in page has no csrf_token');
  const header = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const posted = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: tenant.email, password: tenant.password, csrf_token: csrf }).toString(),
  });
  keep(posted);
  await posted.text();
  if (posted.status !== 303 && posted.status !== 302)
    throw new Error(`(d) signing in answered ${posted.status}, not a redirect`);
  return header();
}

export async function benchDashboard(o: {
  baseUrl: string;
  databaseUrl: string;
  tenant: Tenant;
  seconds: number;
  warmupSeconds: number;
  quick: boolean;
  log: (line: string) => void;
}): Promise<{ report: string; goals: Goal[] }> {
  const concurrency = Number(process.env.BENCH_DASHBOARD_LOOPS ?? 1);
  const size = (name: string, full: number) => Number(process.env[name] ?? (o.quick ? full / 10 : full));
  const orders = size('BENCH_DASHBOARD_ORDERS', 1_000_000);
  const subscriptions = size('BENCH_DASHBOARD_SUBSCRIPTIONS', 100_000);
  const checkouts = size('BENCH_DASHBOARD_CHECKOUTS', 100_000);
  const organizationId = o.tenant.organizationId;
  const { ms } = await seedMetrics({ databaseUrl: o.databaseUrl, organizationId, orders, subscriptions, checkouts });
  o.log(`(d) seeded ${orders} orders, ${subscriptions} subscriptions, ${checkouts} checkouts in ${ms} ms`);
  await settle(o.databaseUrl);
  const cookie = await signIn(o.baseUrl, o.tenant);

  const end = new Date();
  const yearAgo = new Date(end.getTime() - 364 * 86_400_000).toISOString().slice(0, 10);
  const base = `/dashboard/${organizationId}`;
  const lastPage = Math.max(1, Math.ceil(subscriptions / PAGE_SIZE));
  // One of the seeded customers (seed-metrics.ts: one per five subscriptions, at most 20,000), by e-mail.
  const searched = `metrics-${Math.floor(Math.min(20_000, subscriptions / 5) / 2)}-`;
  // Each page with a mark of its content, so a page that answered 200 without its rows is not timed as one.
  const pages: { label: string; path: string; shows: string; overview?: boolean }[] = [
    { label: 'overview, default range (30 days, daily)', path: base, shows: 'data-metric="revenue"', overview: true },
    {
      label: 'overview, a year by day',
      path: `${base}?start_date=${yearAgo}&end_date=${end.toISOString().slice(0, 10)}&interval=day`,
      shows: 'data-metric="revenue"',
      overview: true,
    },
    { label: 'subscriptions, page 1', path: `${base}/subscriptions`, shows: 'data-subscription=' },
    {
      label: `subscriptions, page ${lastPage} (the last)`,
      path: `${base}/subscriptions?page=${lastPage}`,
      shows: 'data-subscription=',
    },
    { label: 'orders, page 1', path: `${base}/orders`, shows: `href="${base}/orders/` },
    { label: 'customers, searched by e-mail', path: `${base}/customers?query=${searched}`, shows: searched },
  ];

  const rows: string[][] = [];
  const goals: Goal[] = [];
  for (const page of pages) {
    const once = async () => {
      const response = await fetch(`${o.baseUrl}${page.path}`, { headers: { cookie }, redirect: 'manual' });
      const text = await response.text();
      if (response.status !== 200 || !text.includes(page.shows))
        throw new Error(`(d) ${page.path} answered ${response.status} without "${page.shows}": ${text.slice(0, 300)}`);
    };
    await once();
    if (o.warmupSeconds > 0) await loops(o.warmupSeconds, concurrency, once);
    o.log(`(d) ${page.label}…`);
    const run: Run = await loops(o.seconds, concurrency, once);
    const verdict = page.overview ? (run.p50 < OVERVIEW_GOAL_MS ? 'met' : 'missed') : '';
    rows.push([page.label, run.p50.toFixed(0), run.p99.toFixed(0), String(run.count), verdict]);
    if (page.overview)
      goals.push({
        name: `dashboard ${page.label}, p50 server time (p99 ${run.p99.toFixed(0)} ms)`,
        measured: run.p50,
        goal: `< ${OVERVIEW_GOAL_MS} ms`,
        met: run.p50 < OVERVIEW_GOAL_MS,
        unit: ' ms',
      });
  }
  const seeded = `${orders.toLocaleString('en')} orders, ${subscriptions.toLocaleString('en')} subscriptions, ${checkouts.toLocaleString('en')} checkouts`;
  const report = [
    '',
    `Dashboard pages, signed in as the owner · ${seeded} · ${concurrency} loop(s) · ${o.seconds} s each · time to the whole body`,
    '',
    table(['page', 'p50 ms', 'p99 ms', 'requests', `goal < ${OVERVIEW_GOAL_MS} ms`], rows),
    '',
  ].join('\n');
  return { report, goals };
}
