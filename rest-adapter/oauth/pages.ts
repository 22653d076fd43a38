import type { ConsentView } from '../../subgraphs/identity/contract.js';
import { csrfField, html, renderPage, type PageUser, type SafeHtml } from '../web-kit/kit.js';

/**
 * The consent page (OIDC Core §3.1.2.4): names the client, says for whom, lists the scopes in words,
 * and offers "Allow" and "Deny". With `sub_type=organization` the person picks one organization
 * (radio inputs labelled with its name). It posts the validated request back as hidden inputs.
 */
export function consentPage(view: ConsentView, csrfToken: string, user: PageUser): string {
  const client = view.client;
  const organization = view.subType === 'organization';
  const noOrganizations = organization && view.organizations.length === 0;
  const hidden = Object.entries(view.request).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  const links = [
    client.clientUri ? html`<a href="${client.clientUri}" rel="noopener noreferrer">Website</a>` : null,
    client.tosUri ? html`<a href="${client.tosUri}" rel="noopener noreferrer">Terms of service</a>` : null,
    client.policyUri ? html`<a href="${client.policyUri}" rel="noopener noreferrer">Privacy policy</a>` : null,
  ].filter(Boolean) as SafeHtml[];
  const back = safeOrigin(view.request.redirect_uri);

  const chooser = organization
    ? noOrganizations
      ? html`<div class="warning" role="alert">You are not a member of any organization, so there is nothing to grant access to.</div>`
      : html`<fieldset><legend>Organization</legend>${view.organizations.map((o, i) => html`<label class="check"><input type="radio" name="organization_id" value="${o.id}" required${i === 0 && view.organizations.length === 1 ? html` checked` : null}> ${o.name}</label>`)}</fieldset>`
    : null;

  const body = html`<h1>Authorize ${client.clientName}</h1>
<div class="card">
<p><strong>${client.clientName}</strong> wants to access ${organization ? html`one of your organizations` : html`your account <strong>${view.user.email}</strong>`}.</p>
<form class="stack" method="post" action="/oauth2/consent">
${csrfField(csrfToken)}
${hidden}
${chooser}
<div>
<p>It will be able to:</p>
<ul class="scopes-list">${view.scopes.map(s => html`<li>${s.description} <span class="muted">(<code>${s.scope}</code>)</span></li>`)}</ul>
</div>
<div style="display:flex;gap:.75rem">
${noOrganizations ? null : html`<button type="submit" name="action" value="allow">Allow</button>`}
<button type="submit" name="action" value="deny" class="secondary" formnovalidate>Deny</button>
</div>
</form>
${back ? html`<p class="muted">Either way you will be sent back to ${back}.</p>` : null}
${links.length ? html`<p class="muted">${links.map((l, i) => html`${i ? ' · ' : ''}${l}`)}</p>` : null}
</div>`;
  return renderPage({ title: `Authorize ${client.clientName}`, body, user, narrow: true });
}

/** The page for a request that cannot go back to the client (RFC 6749 §4.1.2.1). */
export function authorizationErrorPage(error: string, description: string, user?: PageUser | null): string {
  const body = html`<h1>This authorization request cannot be completed</h1>
<div class="card">
<div class="error" role="alert">${description}</div>
<p class="muted">Error code: <code>${error}</code>. You were not sent back to the application because its request could not be trusted; close this page and try again from the application.</p>
</div>`;
  return renderPage({ title: 'Authorization error', body, user, narrow: true });
}

function safeOrigin(uri: string | undefined): string | null {
  if (!uri) return null;
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}
