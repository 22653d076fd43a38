import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  deleteOfThisOrganization,
  formField,
  formValues,
  html,
  type HtmlValue,
  ofThisOrganization,
  rawHtml,
  redirectTo,
  whenRefused,
  type Wire,
} from './section.js';

/** The overview's metrics, Polar's slugs, in the order of the cards, the table's columns and the charts. */
export const OVERVIEW_METRICS = [
  'revenue',
  'monthly_recurring_revenue',
  'active_subscriptions',
  'new_subscriptions',
  'churned_subscriptions',
  'checkouts_conversion',
] as const;

/** The overview's selection: the saved dashboard shown (if any) and the metrics it asks `metrics:get` for. */
export interface MetricSelection {
  dashboard: Wire | null;
  metrics: string[];
  saved: Wire[];
}

/**
 * What the overview shows: a saved dashboard's metrics (`?dashboard=<id>`, `metrics:get_dashboard`; one of
 * another organization is not found), else the metrics ticked in the URL (`?metrics=…`, repeated), else the
 * six of the overview. The organization's saved dashboards come with it (`metrics:list_dashboards`).
 */
export async function chosenMetrics(ctx: DashboardContext): Promise<MetricSelection> {
  const id = ctx.query('dashboard');
  const [saved, dashboard] = await Promise.all([
    ctx.call<Wire[]>('metrics:list_dashboards', { query: { organization_id: [ctx.organization.id] } }),
    id ? ctx.call<Wire>('metrics:get_dashboard', { params: { id } }) : null,
  ]);
  if (dashboard) ofThisOrganization(ctx, dashboard);
  const ticked = new URL(ctx.req.originalUrl, 'http://local').searchParams.getAll('metrics');
  const metrics = dashboard?.metrics?.length ? dashboard.metrics : ticked.length ? ticked : [...OVERVIEW_METRICS];
  return { dashboard, metrics, saved };
}

/** The metrics a visitor can tick: the overview's six, and any other a saved dashboard asks for. */
export function metricBoxes(selection: MetricSelection): HtmlValue {
  const chosen = new Set(selection.metrics);
  const all = [...new Set<string>([...OVERVIEW_METRICS, ...selection.metrics])];
  return html`<fieldset class="field metrics"><legend>Metrics</legend>${all.map(
    slug =>
      html`<label class="check"><input type="checkbox" name="metrics" value="${slug}"${chosen.has(slug) ? rawHtml(' checked') : null}> ${slug}</label> `,
  )}</fieldset>`;
}

/** The saved dashboards: each a link that shows only its metrics, with rename and delete; and "save the selection as". */
export function dashboardsPanel(ctx: DashboardContext, selection: MetricSelection): HtmlValue {
  const base = `/dashboard/${ctx.organization.id}`;
  const list = selection.saved.length
    ? html`<ul class="plain">${selection.saved.map(
        d =>
          html`<li data-saved-dashboard="${d.id}"><a href="${base}?dashboard=${d.id}"${d.id === selection.dashboard?.id ? rawHtml(' aria-current="page"') : null}>${d.name}</a> <span class="muted">(${(d.metrics ?? []).join(', ')})</span> <form class="inline" method="post" action="${base}/metric-dashboards/${d.id}/rename">${csrfField(ctx.csrfToken)}<input type="text" name="name" value="${d.name}" aria-label="New name of ${d.name}" required> <button type="submit" class="secondary">Rename</button></form> <form class="inline" method="post" action="${base}/metric-dashboards/${d.id}/delete">${csrfField(ctx.csrfToken)}<button type="submit" class="secondary">Delete</button></form></li>`,
      )}</ul>`
    : html`<p class="muted">No saved dashboards.</p>`;
  return html`<h2>Saved dashboards</h2><div class="card">${selection.dashboard ? html`<p><a href="${base}">Show the overview's metrics</a></p>` : null}${list}
<form class="filters" method="post" action="${base}/metric-dashboards">${csrfField(ctx.csrfToken)}${selection.metrics.map(
    slug => html`<input type="hidden" name="metrics" value="${slug}">`,
  )}<div class="field"><label for="dashboard-name">Save these metrics as</label><input id="dashboard-name" type="text" name="name" required></div><div><button type="submit">Save dashboard</button></div></form></div>`;
}

/**
 * `POST …/metric-dashboards`: `POST /v1/metrics/dashboards` of the name and the metrics shown; the new
 * dashboard is shown. A refusal (an empty name, more than ten metrics) is the API's, on the overview.
 */
async function saveDashboard(ctx: DashboardContext, show: ShowOverview): Promise<void> {
  await whenRefused(
    async () => {
      const created = await ctx.call<Wire>('metrics:create_dashboard', {
        body: {
          name: formField(ctx, 'name'),
          metrics: formValues(ctx, 'metrics'),
          organization_id: ctx.organization.id,
        },
      });
      redirectTo(ctx, `?dashboard=${created.id}`, 'dashboard-saved');
    },
    (error, status) => show(ctx, { error, status }),
  );
}

/**
 * `POST …/metric-dashboards/:id/rename`: `PATCH /v1/metrics/dashboards/{id}` of this organization's dashboard
 * with the new name only (its metrics stay); the renamed dashboard is shown. An empty name is the API's 422.
 */
async function renameDashboard(ctx: DashboardContext, show: ShowOverview): Promise<void> {
  const id = ctx.req.params.id as string;
  ofThisOrganization(ctx, await ctx.call<Wire>('metrics:get_dashboard', { params: { id } }));
  await whenRefused(
    async () => {
      await ctx.call('metrics:update_dashboard', { params: { id }, body: { name: formField(ctx, 'name') } });
      redirectTo(ctx, `?dashboard=${id}`, 'dashboard-renamed');
    },
    (error, status) => show(ctx, { error, status }),
  );
}

/** `POST …/metric-dashboards/:id/delete`: `DELETE /v1/metrics/dashboards/{id}` of this organization's dashboard. */
const deleteDashboard = (show: ShowOverview) =>
  deleteOfThisOrganization(
    { get: 'metrics:get_dashboard', remove: 'metrics:delete_dashboard' },
    { path: '', notice: 'dashboard-deleted' },
    show,
  );

/** The overview, shown again with a refusal's message and status (passed in: the overview imports this file). */
type ShowOverview = (ctx: DashboardContext, refusal: { error: string; status: number }) => Promise<void>;

export const metricDashboardRoutes = (show: ShowOverview): DashboardRoute[] => [
  { method: 'post', path: '/metric-dashboards', handler: ctx => saveDashboard(ctx, show) },
  { method: 'post', path: '/metric-dashboards/:id/rename', handler: ctx => renameDashboard(ctx, show) },
  { method: 'post', path: '/metric-dashboards/:id/delete', handler: deleteDashboard(show) },
];
