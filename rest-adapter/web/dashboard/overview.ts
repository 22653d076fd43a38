import { minorUnitsPerMajor } from '../../../kit/money/currency.js';
import { formatMoney } from '../../../kit/money/format.js';
import { DASHBOARD_SCRIPTS, uplotStylesheet } from './dashboard-assets.js';
import { chosenMetrics, dashboardsPanel, type MetricSelection, metricBoxes } from './metric-dashboards.js';
import {
  type DashboardContext,
  heading,
  html,
  type HtmlValue,
  rawHtml,
  sendDashboard,
  whenRefused,
} from './section.js';

const INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const;
const DEFAULT_DAYS = 30;

interface MetricsAnswer {
  periods: ({ timestamp: string } & Record<string, number>)[];
  totals: Record<string, number>;
  metrics: Record<string, { slug: string; display_name: string; type: string }>;
}

interface Range {
  start_date: string;
  end_date: string;
  interval: string;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The range asked for, else the last 30 days to "today" by the organization's clock: in the sandbox the
 * clock may have been moved ahead (`GET /v1/sandbox/clock`), and the overview shows the days it lives in.
 */
async function chosenRange(ctx: DashboardContext): Promise<Range> {
  let today = new Date();
  if (ctx.deps.environment === 'sandbox' && ctx.deps.api.has('sandbox:clock_get')) {
    const clock = await ctx.call<{ now: string }>('sandbox:clock_get', {
      query: { organization_id: ctx.organization.id },
    });
    today = new Date(clock.now);
  }
  const start = new Date(today.getTime() - (DEFAULT_DAYS - 1) * 86_400_000);
  return {
    start_date: ctx.query('start_date') || isoDay(start),
    end_date: ctx.query('end_date') || isoDay(today),
    interval: ctx.query('interval') || 'day',
  };
}

/**
 * `GET /dashboard/:organizationId`: the metrics of the range as cards, a table, and (with scripts) charts; the
 * metrics are the overview's six, those ticked, or a saved dashboard's (metric-dashboards.ts). `refusal` is an
 * action of the page the API refused (saving or deleting a dashboard): its message and status.
 */
export async function showOverview(
  ctx: DashboardContext,
  refusal: { error?: string; status?: number } = {},
): Promise<void> {
  const [range, organization, selection] = await Promise.all([
    chosenRange(ctx),
    ctx.call<{ default_presentment_currency: string }>('organizations:get', { params: { id: ctx.organization.id } }),
    chosenMetrics(ctx),
  ]);
  const currency = organization.default_presentment_currency || 'usd';
  const title = selection.dashboard?.name ?? 'Overview';
  await whenRefused(
    async () => {
      const answer = await ctx.call<MetricsAnswer>('metrics:get', {
        query: { ...range, organization_id: ctx.organization.id, metrics: selection.metrics },
      });
      sendDashboard(ctx, {
        section: 'overview',
        title,
        status: refusal.status,
        scripts: DASHBOARD_SCRIPTS,
        body: html`<style>${rawHtml(uplotStylesheet())}</style>${heading(title, refusal.error)}${rangeForm(range, selection)}${cards(answer, currency, selection)}
<div id="charts" class="charts" hidden></div>
<h2>Per period</h2>${table(answer, currency, selection)}${dashboardsPanel(ctx, selection)}`,
      });
    },
    async (error, status) =>
      sendDashboard(ctx, {
        section: 'overview',
        title,
        status,
        body: html`${heading(title, error)}${rangeForm(range, selection)}${dashboardsPanel(ctx, selection)}`,
      }),
  );
}

/** The range, and the metrics to tick (or, for a saved dashboard, its id: it keeps its own metrics). */
function rangeForm(range: Range, selection: MetricSelection): HtmlValue {
  return html`<form class="filters" method="get">${
    selection.dashboard
      ? html`<input type="hidden" name="dashboard" value="${selection.dashboard.id}">`
      : metricBoxes(selection)
  }
<div class="field"><label for="start_date">From</label><input id="start_date" type="date" name="start_date" value="${range.start_date}" required></div>
<div class="field"><label for="end_date">To</label><input id="end_date" type="date" name="end_date" value="${range.end_date}" required></div>
<div class="field"><label for="interval">Interval</label><select id="interval" name="interval">${INTERVALS.map(
    i => html`<option value="${i}"${i === range.interval ? rawHtml(' selected') : null}>${i}</option>`,
  )}</select></div>
<div><button type="submit">Show</button></div></form>`;
}

/** A metric's value as people read it: money in the organization's currency, a fraction as a percentage. */
function shown(value: number | undefined, type: string, currency: string): string {
  if (value == null) return '—';
  if (type === 'currency' || type === 'currency_sub_cent') return formatMoney(BigInt(Math.round(value)), currency);
  if (type === 'percentage') return `${(value * 100).toFixed(1)}%`;
  return COUNT.format(value);
}
const COUNT = new Intl.NumberFormat('en-US');

/** The metrics the answer has (one the service cannot compute is absent from the answer, so from the page). */
const answered = (answer: MetricsAnswer, selection: MetricSelection) =>
  selection.metrics.filter(slug => answer.metrics[slug]);

function cards(answer: MetricsAnswer, currency: string, selection: MetricSelection): HtmlValue {
  return html`<div class="kpis">${answered(answer, selection).map(slug => {
    const info = answer.metrics[slug];
    return html`<div class="kpi" data-metric="${slug}"><span class="muted">${info.display_name}</span><strong>${shown(answer.totals[slug], info.type, currency)}</strong></div>`;
  })}</div>`;
}

function table(answer: MetricsAnswer, currency: string, selection: MetricSelection): HtmlValue {
  const slugs = answered(answer, selection);
  const perMajor = minorUnitsPerMajor(currency).toString();
  return html`<table data-metrics><thead><tr><th>Period</th>${slugs.map(slug => {
    const info = answer.metrics[slug];
    return html`<th class="num" data-slug="${slug}" data-kind="${info.type}" data-per-major="${perMajor}">${info.display_name}</th>`;
  })}</tr></thead><tbody>${answer.periods.map(
    period =>
      html`<tr data-time="${Math.floor(Date.parse(period.timestamp) / 1000)}"><td><time datetime="${period.timestamp}">${period.timestamp.slice(0, 16).replace('T', ' ')}</time></td>${slugs.map(
        slug =>
          html`<td class="num" data-value="${period[slug] ?? 0}">${shown(period[slug], answer.metrics[slug].type, currency)}</td>`,
      )}</tr>`,
  )}</tbody></table>`;
}
