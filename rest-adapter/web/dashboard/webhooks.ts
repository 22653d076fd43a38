import { createEndpointForm, endpointsTable } from './webhook-endpoint-forms.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  formField,
  formValues,
  heading,
  html,
  type HtmlValue,
  pageNumber,
  pager,
  redirectTo,
  sendDashboard,
  whenRefused,
  type Wire,
} from './section.js';

const PAGE_SIZE = '20';

function when(value: string | null | undefined): HtmlValue {
  if (!value) return '—';
  const iso = new Date(value).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

/** The body as sent or answered: JSON pretty-printed, anything else as it is (always escaped text). */
function shownBody(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value ?? null, null, 2);
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
}

function deliveriesList(ctx: DashboardContext, deliveries: Wire[]): HtmlValue {
  if (!deliveries.length) return html`<p class="muted">No deliveries yet.</p>`;
  const base = `/dashboard/${ctx.organization.id}/webhooks`;
  return html`<table><thead><tr><th>Sent</th><th>Event</th><th>Answer</th><th>Request and response</th><th></th></tr></thead><tbody>${deliveries.map(
    d => html`<tr data-delivery="${d.id}"><td>${when(d.created_at)}</td><td><code>${d.webhook_event?.type ?? ''}</code></td>
<td>${d.succeeded ? 'Succeeded' : 'Failed'}${d.http_code ? html` · HTTP ${d.http_code}` : null}</td>
<td><details><summary>Show</summary><h3>Request body</h3><pre class="body">${shownBody(d.webhook_event?.payload)}</pre><h3>Response</h3><pre class="body">${d.response ?? '(none)'}</pre></details></td>
<td>${
      d.webhook_event?.id
        ? html`<form class="inline" method="post" action="${base}/events/${d.webhook_event.id}/redeliver">${csrfField(ctx.csrfToken)}<button type="submit" class="secondary">Redeliver</button></form>`
        : null
    }</td></tr>`,
  )}</tbody></table>`;
}

/** `GET …/webhooks`: the organization's endpoints, their deliveries (newest first), and the new endpoint's form. */
async function showWebhooks(
  ctx: DashboardContext,
  form: { error?: string; status?: number; createError?: string } = {},
): Promise<void> {
  const page = pageNumber(ctx);
  const endpoints = await ctx.call('webhooks:list_webhook_endpoints', {
    query: { organization_id: ctx.organization.id, limit: '100' },
  });
  const ids = endpoints.items.map((e: Wire) => e.id as string);
  // Deliveries are listed by endpoint: only this organization's endpoints are asked for.
  const deliveries = ids.length
    ? await ctx.call('webhooks:list_webhook_deliveries', {
        query: { endpoint_id: ids, page: String(page), limit: PAGE_SIZE },
      })
    : { items: [], pagination: { total_count: 0, max_page: 0 } };
  sendDashboard(ctx, {
    section: 'webhooks',
    title: 'Webhooks',
    status: form.status,
    body: html`${heading('Webhooks', form.error)}<h2>Endpoints</h2>${endpointsTable(ctx, endpoints.items)}
<h2>Deliveries</h2>${deliveriesList(ctx, deliveries.items)}${pager(ctx, deliveries.pagination, page)}
${createEndpointForm(ctx, form.createError)}`,
  });
}

/** `POST …/webhooks/events/:id/redeliver`: `POST /v1/webhooks/events/{id}/redeliver`. */
async function redeliver(ctx: DashboardContext): Promise<void> {
  await whenRefused(
    async () => {
      await ctx.call('webhooks:redeliver_webhook_event', { params: { id: ctx.req.params.id as string } });
      redirectTo(ctx, '/webhooks', 'redelivered');
    },
    (error, status) => showWebhooks(ctx, { error, status }),
  );
}

/**
 * `POST …/webhooks/endpoints`: `POST /v1/webhooks/endpoints` for this organization; its page (with the
 * signing secret) comes next.
 */
async function createEndpoint(ctx: DashboardContext): Promise<void> {
  const name = formField(ctx, 'name').trim();
  const apiVersion = formField(ctx, 'api_version');
  await whenRefused(
    async () => {
      const endpoint = await ctx.call('webhooks:create_webhook_endpoint', {
        body: {
          organization_id: ctx.organization.id,
          url: formField(ctx, 'url').trim(),
          format: formField(ctx, 'format') || 'raw',
          events: formValues(ctx, 'events'),
          ...(name ? { name } : {}),
          // Without one the endpoint gets the unversioned envelope (docs/webhooks.md#api-versions).
          ...(apiVersion ? { api_version: apiVersion } : {}),
        },
      });
      redirectTo(ctx, `/webhooks/endpoints/${endpoint.id}`, 'endpoint-created');
    },
    (error, status) => showWebhooks(ctx, { createError: error, status }),
  );
}

export const webhookRoutes: DashboardRoute[] = [
  { method: 'get', path: '/webhooks', handler: ctx => showWebhooks(ctx) },
  { method: 'post', path: '/webhooks/events/:id/redeliver', handler: redeliver },
  { method: 'post', path: '/webhooks/endpoints', handler: createEndpoint },
];
