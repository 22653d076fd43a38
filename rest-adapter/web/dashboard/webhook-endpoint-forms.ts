import { API_VERSIONS } from '../../../kit/api-versions.js';
import { POLAR_DELIVERY_POLICY, WEBHOOK_EVENT_TYPES } from '../../../subgraphs/webhooks/contract.js';
import {
  csrfField,
  type DashboardContext,
  errorBox,
  formField,
  formValues,
  html,
  type HtmlValue,
  rawHtml,
  type Wire,
} from './section.js';

/**
 * Why an endpoint is off. The wire carries `enabled` and no reason, so the page says the two ways it happens
 * (docs/webhooks.md): the service turns it off after its most recent events all failed, or someone did.
 */
export const DISABLED_REASON = `Disabled: no events are sent to it. The service disables an endpoint when its ${POLAR_DELIVERY_POLICY.failureThreshold} most recent events all failed (the owners and admins are e-mailed), and an edit can turn it off. Enable it again below; events missed meanwhile are not sent until redelivered.`;

/** The endpoints, each with its state and a link to its page (edit, delete, secret). */
export function endpointsTable(ctx: DashboardContext, endpoints: Wire[]): HtmlValue {
  if (!endpoints.length) return html`<p class="muted">No endpoints yet: add one below.</p>`;
  const base = `/dashboard/${ctx.organization.id}/webhooks/endpoints`;
  return html`<table><thead><tr><th>URL</th><th>Format</th><th>Events</th><th>State</th></tr></thead><tbody>${endpoints.map(
    e =>
      html`<tr data-endpoint="${e.id}"><td><a href="${base}/${e.id}"><code>${e.url}</code></a>${e.name ? html`<br><span class="muted">${e.name}</span>` : null}</td><td>${e.format}</td><td>${(e.events ?? []).join(', ') || html`<span class="muted">none</span>`}</td><td>${
        e.enabled
          ? 'Enabled'
          : html`<strong data-disabled>Disabled</strong><br><span class="muted">after failures or an edit</span>`
      }</td></tr>`,
  )}</tbody></table>`;
}

/** The event types as checkboxes: the API's own list (`WEBHOOK_EVENT_TYPES`, the create and update schemas' enum). */
function eventBoxes(chosen: Set<string>): HtmlValue {
  return html`<fieldset><legend>Events</legend><div class="events">${WEBHOOK_EVENT_TYPES.map(
    type =>
      html`<label class="check"><input type="checkbox" name="events" value="${type}"${chosen.has(type) ? rawHtml(' checked') : null}> ${type}</label>`,
  )}</div></fieldset>`;
}

/** The field's posted value after a refused post, else the endpoint's own. */
function shown(ctx: DashboardContext, name: string, current: unknown): string {
  if (ctx.req.method === 'POST') return formField(ctx, name);
  return typeof current === 'string' ? current : '';
}

/** `POST …/webhooks/endpoints`' form: URL, name, format, API version (none is the 0.4x SDKs' envelope), events. */
export function createEndpointForm(ctx: DashboardContext, error?: string): HtmlValue {
  const version = formField(ctx, 'api_version');
  return html`<h2>New endpoint</h2><div class="card">${errorBox(error)}<form class="stack" method="post" action="/dashboard/${ctx.organization.id}/webhooks/endpoints">${csrfField(ctx.csrfToken)}
<div class="row"><div class="field"><label for="endpoint-url">URL</label><input id="endpoint-url" type="url" name="url" value="${formField(ctx, 'url')}" placeholder="https://example.com/webhooks" required></div>
<div class="field"><label for="endpoint-name">Name (optional)</label><input id="endpoint-name" type="text" name="name" value="${formField(ctx, 'name')}"></div></div>
<div class="row"><div class="field"><label for="endpoint-format">Format</label><select id="endpoint-format" name="format"><option value="raw">Standard Webhooks JSON (raw)</option></select></div>
<div class="field"><label for="endpoint-version">API version of the payloads</label><select id="endpoint-version" name="api_version"><option value="">None (Polar's 0.4x SDKs: fewer event types)</option>${API_VERSIONS.map(
    v => html`<option value="${v}"${version === v ? rawHtml(' selected') : null}>${v}</option>`,
  )}</select></div></div>
${eventBoxes(new Set(formValues(ctx, 'events')))}
<div><button type="submit">Create endpoint</button></div></form></div>`;
}

/** The endpoint page's edit form: URL, name, events and whether it is enabled (`webhooks:update_webhook_endpoint`). */
export function editEndpointForm(ctx: DashboardContext, endpoint: Wire, error?: string): HtmlValue {
  const posted = ctx.req.method === 'POST';
  const events = new Set<string>(posted ? formValues(ctx, 'events') : (endpoint.events ?? []));
  const enabled = posted ? formField(ctx, 'enabled') === 'on' : endpoint.enabled;
  return html`<h2>Edit</h2><div class="card">${errorBox(error)}<form class="stack" method="post" action="/dashboard/${ctx.organization.id}/webhooks/endpoints/${endpoint.id}">${csrfField(ctx.csrfToken)}
<div class="row"><div class="field"><label for="endpoint-url">URL</label><input id="endpoint-url" type="url" name="url" value="${shown(ctx, 'url', endpoint.url)}" required></div>
<div class="field"><label for="endpoint-name">Name (optional)</label><input id="endpoint-name" type="text" name="name" value="${shown(ctx, 'name', endpoint.name)}"></div></div>
${eventBoxes(events)}
<label class="check"><input type="checkbox" name="enabled" value="on"${enabled ? rawHtml(' checked') : null}> Enabled (events are sent to it)</label>
<div><button type="submit">Save endpoint</button></div></form></div>`;
}
