import type { EnvironmentName } from '../../../kit/config.js';
import type { OrganizationSummary, TokenRow } from '../../../subgraphs/identity/contract.js';
import { html, type SafeHtml } from '../../web-kit/html.js';
import { csrfField, errorBox } from '../../web-kit/layout.js';
import { scopeSections } from './offered-scopes.js';

export type { OrganizationSummary, TokenRow };

/** The expiry choices of the create form, as ISO 8601 durations ('' never expires). */
export const EXPIRY_OPTIONS: readonly { value: string; label: string }[] = [
  { value: '', label: 'No expiry' },
  { value: 'P7D', label: '7 days' },
  { value: 'P30D', label: '30 days' },
  { value: 'P90D', label: '90 days' },
  { value: 'P1Y', label: '1 year' },
];
const DEFAULT_EXPIRY = 'P30D';

/**
 * Which environment the page belongs to, visibly at the top: tokens made here work only on this
 * environment's API, and a sandbox token is refused by production.
 */
export function environmentBanner(environment: EnvironmentName): SafeHtml {
  return environment === 'sandbox'
    ? html`<div class="warning" role="note" data-environment="sandbox"><strong>Sandbox.</strong> Test data and test payments only; the tokens made here work only on the sandbox API.</div>`
    : html`<div class="notice" role="note" data-environment="production"><strong>Production.</strong> Live data; the tokens made here work only on the production API.</div>`;
}

/** An ISO 8601 time from the contract, shown to the minute in UTC. */
function when(time: string | null, never: string): SafeHtml {
  if (!time) return html`<span class="muted">${never}</span>`;
  const iso = new Date(time).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** A token's scopes; a long list folds into a <details> (no script needed). */
function scopeList(scopes: string[]): SafeHtml {
  if (!scopes.length) return html`<span class="muted">none</span>`;
  const codes = scopes.map((s, i) => html`${i ? ', ' : ''}<code>${s}</code>`);
  return scopes.length > COLLAPSE_SCOPES_AFTER
    ? html`<details><summary>${scopes.length} scopes</summary>${codes}</details>`
    : html`${codes}`;
}
const COLLAPSE_SCOPES_AFTER = 6;

export function settingsBody(options: {
  environment: EnvironmentName;
  organizations: OrganizationSummary[];
  csrfToken: string;
  error?: string | null;
  name?: string;
  slug?: string;
}): SafeHtml {
  const list = options.organizations.length
    ? html`<ul class="plain">${options.organizations.map(o => html`<li><a href="/settings/organizations/${o.id}">${o.name}</a> <span class="muted">· ${o.slug} · ${o.role}</span></li>`)}</ul>`
    : html`<p class="muted">You are not a member of any organization yet.</p>`;
  return html`<h1>Settings</h1>
${environmentBanner(options.environment)}
<p><a href="/dashboard">Open the dashboard</a></p>
<h2>Organizations</h2>
<div class="card">${list}</div>
<h2>New organization</h2>
<div class="card">
${errorBox(options.error)}
<form class="stack" method="post" action="/settings/organizations">
${csrfField(options.csrfToken)}
<div class="field"><label for="org-name">Name</label><input id="org-name" type="text" name="name" value="${options.name ?? ''}" required></div>
<div class="field"><label for="org-slug">Slug</label><input id="org-slug" type="text" name="slug" value="${options.slug ?? ''}" pattern="[a-z0-9][a-z0-9-]*" required></div>
<div><button type="submit">Create organization</button></div>
</form>
</div>`;
}

export interface OrganizationPageOptions {
  environment: EnvironmentName;
  /** The scopes the create form offers (offered-scopes.ts). */
  scopes: readonly string[];
  organization: OrganizationSummary;
  tokens: TokenRow[];
  canManage: boolean;
  csrfToken: string;
  notice?: string | null;
  error?: string | null;
  /** The create form's values after a failed attempt. */
  form?: { comment?: string; scopes?: string[]; expiresIn?: string };
}

export function organizationBody(options: OrganizationPageOptions): SafeHtml {
  const { organization: org, tokens, canManage, csrfToken } = options;
  const base = `/settings/organizations/${org.id}`;
  const rows = tokens.map(
    t => html`<tr>
<td>${t.comment || html`<span class="muted">(no comment)</span>`}</td>
<td>${scopeList(t.scopes)}</td>
<td>${when(t.createdAt, '')}</td>
<td>${when(t.expiresAt, 'Never')}</td>
<td>${when(t.lastUsedAt, 'Never')}</td>
${canManage ? html`<td><form class="inline" method="post" action="${base}/tokens/${t.id}/revoke">${csrfField(csrfToken)}<button type="submit" class="danger" aria-label="Revoke ${t.comment || 'token'}">Revoke</button></form></td>` : null}
</tr>`,
  );
  const table = tokens.length
    ? html`<table><thead><tr><th>Comment</th><th>Scopes</th><th>Created</th><th>Expires</th><th>Last used</th>${canManage ? html`<th><span class="muted">Actions</span></th>` : null}</tr></thead><tbody>${rows}</tbody></table>`
    : html`<div class="card"><p class="muted">No access tokens yet.</p></div>`;
  const chosen = new Set(options.form?.scopes ?? []);
  const expiry = options.form?.expiresIn ?? DEFAULT_EXPIRY;
  const create = canManage
    ? html`<h2>New access token</h2>
<div class="card">
${errorBox(options.error)}
<form class="stack" method="post" action="${base}/tokens">
${csrfField(csrfToken)}
<div class="field"><label for="token-comment">Comment</label><input id="token-comment" type="text" name="comment" value="${options.form?.comment ?? ''}" placeholder="What the token is for" maxlength="200"></div>
<fieldset><legend>Scopes</legend>
<p class="muted">The scopes of what this service serves today; the API and the CLI accept every Polar scope.</p>
${scopeSections(options.scopes).map(section => html`<h3>${section.label}</h3>${section.groups.map(group => html`<div class="scope-group"><h4>${group.label}</h4><div class="scopes">${group.scopes.map(scope => html`<label class="check"><input type="checkbox" name="scopes" value="${scope}"${chosen.has(scope) ? html` checked` : null}> ${scope}</label>`)}</div></div>`)}`)}
</fieldset>
<div class="field"><label for="token-expiry">Expires</label><select id="token-expiry" name="expires_in">${EXPIRY_OPTIONS.map(o => html`<option value="${o.value}"${o.value === expiry ? html` selected` : null}>${o.label}</option>`)}</select></div>
<div><button type="submit">Create token</button></div>
</form>
</div>`
    : html`<p class="muted">Only owners and admins of the organization can create or revoke access tokens.</p>`;
  return html`<p><a href="/settings">← Settings</a></p>
<h1>${org.name}</h1>
<p class="muted">${org.slug} · <code>${org.id}</code> · your role: ${org.role}</p>
${environmentBanner(options.environment)}
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : null}
${options.error && !canManage ? errorBox(options.error) : null}
<h2>Access tokens</h2>
${table}
${create}`;
}

export function tokenCreatedBody(options: {
  organization: OrganizationSummary;
  raw: string;
  token: TokenRow;
}): SafeHtml {
  const { organization: org, raw, token } = options;
  return html`<p><a href="/settings/organizations/${org.id}">← ${org.name}</a></p>
<h1>Access token created</h1>
<div class="warning" role="alert"><strong>Copy this token now.</strong> It is shown only once: it is stored hashed and cannot be displayed again.</div>
<div class="card">
<div class="field"><label for="new-token">Token</label><output id="new-token" class="secret" data-token>${raw}</output></div>
<p><strong>Comment:</strong> ${token.comment || html`<span class="muted">(no comment)</span>`}<br>
<strong>Scopes:</strong> ${token.scopes.length ? token.scopes.join(', ') : html`<span class="muted">none</span>`}<br>
<strong>Expires:</strong> ${when(token.expiresAt, 'Never')}</p>
<p>Use it as <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<p><a href="/settings/organizations/${org.id}">Back to ${org.name}</a></p>
</div>`;
}
