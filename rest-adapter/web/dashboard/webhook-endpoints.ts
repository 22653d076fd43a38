import { html } from '../../web-kit/html.js';
import { csrfField } from '../../web-kit/layout.js';
import { formatDate } from '../portal/portal-format.js';
import {
  type DashboardContext,
  type DashboardRoute,
  formField,
  formValues,
  ofThisOrganization,
  redirectTo,
  whenRefused,
} from './dashboard-context.js';
import { heading, sendDashboard } from './dashboard-frame.js';
import { DISABLED_REASON, editEndpointForm } from './webhook-endpoint-forms.js';

type Wire = Record<string, any>;

interface FormState {
  error?: string;
  status?: number;
}

/** The endpoint of the path, when it is this organization's (`webhooks:get_webhook_endpoint`; another's is a 404). */
async function endpointOf(ctx: DashboardContext): Promise<Wire> {
  const id = ctx.req.params.id as string;
  return ofThisOrganization(ctx, await ctx.call('webhooks:get_webhook_endpoint', { params: { id } }));
}

/**
 * `GET …/webhooks/endpoints/:id`: the endpoint's facts, its state (why it may be disabled), the signing
 * secret its receiver verifies with, the edit form and delete.
 */
async function showEndpoint(ctx: DashboardContext, form: FormState = {}): Promise<void> {
  const endpoint = await endpointOf(ctx);
  const base = `/dashboard/${ctx.organization.id}/webhooks`;
  const state = endpoint.enabled
    ? html`<dd data-state="enabled">Enabled</dd>`
    : html`<dd data-state="disabled"><strong>Disabled</strong><br><span class="muted">${DISABLED_REASON}</span></dd>`;
  sendDashboard(ctx, {
    section: 'webhooks',
    title: `Endpoint ${endpoint.url}`,
    status: form.status,
    body: html`<p><a href="${base}">← Webhooks</a></p>${heading(endpoint.name || 'Webhook endpoint')}
<div class="card"><dl class="facts"><dt>URL</dt><dd><code>${endpoint.url}</code></dd><dt>Format</dt><dd>${endpoint.format}</dd><dt>API version</dt><dd>${endpoint.api_version ?? 'none'}</dd><dt>State</dt>${state}<dt>Created</dt><dd>${formatDate(endpoint.created_at)}</dd>
<dt>Signing secret</dt><dd><code class="secret">${endpoint.secret}</code></dd></dl></div>
${editEndpointForm(ctx, endpoint, form.error)}
<h2>Delete</h2><form method="post" action="${base}/endpoints/${endpoint.id}/delete">${csrfField(ctx.csrfToken)}<p class="muted">Its queued events are skipped.</p><button type="submit" class="danger">Delete endpoint</button></form>`,
  });
}

/** `POST …/webhooks/endpoints/:id`: `PATCH /v1/webhooks/endpoints/{id}` with the URL, name, events and enabled. */
async function updateEndpoint(ctx: DashboardContext): Promise<void> {
  const endpoint = await endpointOf(ctx);
  const name = formField(ctx, 'name').trim();
  await whenRefused(
    async () => {
      await ctx.call('webhooks:update_webhook_endpoint', {
        params: { id: endpoint.id },
        body: {
          url: formField(ctx, 'url').trim(),
          name: name || null,
          events: formValues(ctx, 'events'),
          enabled: formField(ctx, 'enabled') === 'on',
        },
      });
      redirectTo(ctx, `/webhooks/endpoints/${endpoint.id}`, 'saved');
    },
    (error, status) => showEndpoint(ctx, { error, status }),
  );
}

/** `POST …/webhooks/endpoints/:id/delete`: `DELETE /v1/webhooks/endpoints/{id}`. */
async function deleteEndpoint(ctx: DashboardContext): Promise<void> {
  const endpoint = await endpointOf(ctx);
  await whenRefused(
    async () => {
      await ctx.call('webhooks:delete_webhook_endpoint', { params: { id: endpoint.id } });
      redirectTo(ctx, '/webhooks', 'endpoint-deleted');
    },
    (error, status) => showEndpoint(ctx, { error, status }),
  );
}

export const endpointRoutes: DashboardRoute[] = [
  { method: 'get', path: '/webhooks/endpoints/:id', handler: ctx => showEndpoint(ctx) },
  { method: 'post', path: '/webhooks/endpoints/:id', handler: updateEndpoint },
  { method: 'post', path: '/webhooks/endpoints/:id/delete', handler: deleteEndpoint },
];
