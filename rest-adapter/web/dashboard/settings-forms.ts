import { PRORATION_BEHAVIORS } from './subscription-plan.js';
import { csrfField, type DashboardContext, errorBox, html, type HtmlValue, rawHtml, type Wire } from './section.js';

type Field = (name: string) => string;

/**
 * The organization's own settings forms of the Settings section (docs/dashboard.md#the-sections): each is
 * one `PATCH /v1/organizations/{id}` of whole sub-objects, so what the form shows is what is saved.
 */
const checked = (on: unknown) => (on ? rawHtml(' checked') : null);
const selected = (on: boolean) => (on ? rawHtml(' selected') : null);
const textOrNull = (value: string) => value.trim() || null;

function textInput(id: string, name: string, label: string, value: unknown, attributes = ''): HtmlValue {
  const shown = typeof value === 'string' || typeof value === 'number' ? value : '';
  return html`<div class="field"><label for="${id}">${label}</label><input id="${id}" type="text" name="${name}" value="${shown}"${rawHtml(attributes)}></div>`;
}

function formCard(ctx: DashboardContext, title: string, action: string, error: string | undefined, body: HtmlValue) {
  return html`<h2>${title}</h2><div class="card">${errorBox(error)}<form class="stack" method="post" action="/dashboard/${ctx.organization.id}/settings/${action}">${csrfField(ctx.csrfToken)}
${body}<div><button type="submit">Save ${title.toLowerCase()}</button></div></form></div>`;
}

/** Name, contact, country, and the seller's legal identity invoices print (`tax_settings`, docs/tax.md). */
export function organizationForm(ctx: DashboardContext, organization: Wire, error?: string): HtmlValue {
  const tax: Wire = organization.tax_settings ?? {};
  const address: Wire = tax.legal_address ?? {};
  return formCard(
    ctx,
    'Organization',
    'organization',
    error,
    html`<div class="row">${textInput('org-name', 'name', 'Name', organization.name, ' required minlength="3"')}${textInput('org-email', 'email', 'Contact e-mail', organization.email)}${textInput('org-website', 'website', 'Website', organization.website)}${textInput('org-country', 'country', 'Country (ISO code, such as DE)', organization.country)}</div>
<fieldset><legend>Legal identity</legend><div class="row">${textInput('org-legal-name', 'legal_name', 'Legal name', tax.legal_name)}${textInput('org-tax-id', 'tax_id', 'Tax id', tax.tax_id?.[0])}</div>
<div class="row">${textInput('org-line1', 'line1', 'Address', address.line1)}${textInput('org-line2', 'line2', 'Address, line 2', address.line2)}${textInput('org-postal-code', 'postal_code', 'Postal code', address.postal_code)}${textInput('org-city', 'city', 'City', address.city)}${textInput('org-state', 'state', 'State', address.state)}${textInput('org-address-country', 'address_country', 'Address country', address.country)}</div></fieldset>`,
  );
}

/**
 * The organization form as the update's body. The legal address is sent when any of its fields is
 * filled (its country is required by the API), else cleared; a blank field clears its value.
 */
export function organizationBody(field: Field): Record<string, unknown> {
  const addressKeys = ['line1', 'line2', 'postal_code', 'city', 'state'] as const;
  const address = Object.fromEntries(addressKeys.map(key => [key, textOrNull(field(key))]));
  const anyAddress = addressKeys.some(key => address[key]) || field('address_country').trim();
  return {
    name: field('name').trim(),
    email: textOrNull(field('email')),
    website: textOrNull(field('website')),
    country: textOrNull(field('country').toUpperCase()),
    tax_settings: {
      legal_name: textOrNull(field('legal_name')),
      legal_address: anyAddress ? { ...address, country: field('address_country').trim().toUpperCase() } : null,
      tax_id: textOrNull(field('tax_id')),
    },
  };
}

function prorationSelect(id: string, name: string, label: string, current: string | null, inherit?: string) {
  return html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${name}">${
    inherit ? html`<option value="">${inherit}</option>` : null
  }${PRORATION_BEHAVIORS.map(([key, text]) => html`<option value="${key}"${selected(key === current)}>${text}</option>`)}</select></div>`;
}

/** `subscription_settings`: proration (with the upgrade and downgrade overrides), grace period, switches. */
export function subscriptionSettingsForm(ctx: DashboardContext, settings: Wire, error?: string): HtmlValue {
  return formCard(
    ctx,
    'Subscription settings',
    'subscriptions',
    error,
    html`<div class="row">${prorationSelect('sub-proration', 'proration_behavior', 'Proration', settings.proration_behavior)}${prorationSelect('sub-upgrade', 'proration_behavior_upgrade', 'Upgrades', settings.proration_behavior_upgrade ?? null, 'As proration')}${prorationSelect('sub-downgrade', 'proration_behavior_downgrade', 'Downgrades', settings.proration_behavior_downgrade ?? null, 'As proration')}
${textInput('sub-grace', 'benefit_revocation_grace_period', 'Grace period before benefits are revoked (days)', settings.benefit_revocation_grace_period, ' inputmode="numeric" required')}</div>
<div class="scopes"><label class="check"><input type="checkbox" name="allow_multiple_subscriptions" value="on"${checked(settings.allow_multiple_subscriptions)}> Allow a customer several subscriptions</label>
<label class="check"><input type="checkbox" name="prevent_trial_abuse" value="on"${checked(settings.prevent_trial_abuse)}> Prevent trial abuse (one trial per customer)</label>
<label class="check"><input type="checkbox" name="allow_customer_updates" value="on"${checked(settings.allow_customer_updates)}> Let customers change their plan</label></div>`,
  );
}

/** The subscription settings form as the whole `subscription_settings` object, or null for a bad grace period. */
export function subscriptionSettingsBody(field: Field): Record<string, unknown> | null {
  const grace = field('benefit_revocation_grace_period').trim();
  if (!/^\d{1,6}$/.test(grace)) return null;
  return {
    subscription_settings: {
      allow_multiple_subscriptions: field('allow_multiple_subscriptions') === 'on',
      proration_behavior: field('proration_behavior'),
      proration_behavior_upgrade: field('proration_behavior_upgrade') || null,
      proration_behavior_downgrade: field('proration_behavior_downgrade') || null,
      benefit_revocation_grace_period: Number(grace),
      prevent_trial_abuse: field('prevent_trial_abuse') === 'on',
      allow_customer_updates: field('allow_customer_updates') === 'on',
    },
  };
}

/** `customer_portal_settings`: what customers may see and do in the portal, as its switches name it. */
const PORTAL_SWITCHES: readonly [string, string, (s: Wire) => unknown][] = [
  ['usage_show', 'Show usage', s => s.usage?.show],
  ['update_plan', 'Change plan', s => s.subscription?.update_plan],
  ['update_seats', 'Change seats', s => s.subscription?.update_seats],
  ['pause', 'Pause a subscription', s => s.subscription?.pause !== false],
  ['cancel', 'Cancel a subscription', s => s.subscription?.cancel !== false],
  ['allow_email_change', 'Change their e-mail', s => s.customer?.allow_email_change],
];

export function portalSettingsForm(ctx: DashboardContext, settings: Wire, error?: string): HtmlValue {
  return formCard(
    ctx,
    'Customer portal',
    'portal',
    error,
    html`<fieldset><legend>In the portal, customers may</legend><div class="scopes">${PORTAL_SWITCHES.map(
      ([name, label, read]) =>
        html`<label class="check"><input type="checkbox" name="${name}" value="on"${checked(read(settings))}> ${label}</label>`,
    )}</div></fieldset>`,
  );
}

export function portalSettingsBody(field: Field): Record<string, unknown> {
  const on = (name: string) => field(name) === 'on';
  return {
    customer_portal_settings: {
      usage: { show: on('usage_show') },
      subscription: {
        update_seats: on('update_seats'),
        update_plan: on('update_plan'),
        pause: on('pause'),
        cancel: on('cancel'),
      },
      customer: { allow_email_change: on('allow_email_change') },
    },
  };
}
