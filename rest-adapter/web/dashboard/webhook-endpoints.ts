import { formatDate } from '../portal/portal-format.js';
import { DISABLED_REASON, editEndpointForm } from './webhook-endpoint-forms.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  deleteOfThisOrganization,
  formField,
  type FormState,
  formValues,
  heading,
  html,
  ofThisOrganization,
  redirectTo,
  sendDashboard,
  whenRefused,
  type Wire,
} from './section.js';

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

/**
 * `POST …/webhooks/endpoints/:id/delete`: `DELETE /v1/webhooks/endpoints/{id}` of this organization's endpoint
 * (read first through `webhooks:get_webhook_endpoint`, as `endpointOf` does); a refusal is shown on its page.
 */
const deleteEndpoint = deleteOfThisOrganization(
  { get: 'webhooks:get_webhook_endpoint', remove: 'webhooks:delete_webhook_endpoint' },
  { path: '/webhooks', notice: 'endpoint-deleted' },
  showEndpoint,
);

export const endpointRoutes: DashboardRoute[] = [
  { method: 'get', path: '/webhooks/endpoints/:id', handler: ctx => showEndpoint(ctx) },
  { method: 'post', path: '/webhooks/endpoints/:id', handler: updateEndpoint },
  { method: 'post', path: '/webhooks/endpoints/:id/delete', handler: deleteEndpoint },
];
