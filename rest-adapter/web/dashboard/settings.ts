import { ResourceNotFound } from '../../../kit/errors.js';
import {
  organizationBody,
  organizationForm,
  portalSettingsBody,
  portalSettingsForm,
  subscriptionSettingsBody,
  subscriptionSettingsForm,
} from './settings-forms.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  errorBox,
  formField,
  type FormState,
  heading,
  html,
  type HtmlValue,
  rawHtml,
  redirectTo,
  sendDashboard,
  whenRefused,
} from './section.js';

/** Polar's customer e-mail kinds (`OrganizationCustomerEmailSettings`), as the form names them (docs/email.md). */
const EMAIL_KINDS: readonly [string, string][] = [
  ['order_confirmation', 'Order confirmation'],
  ['subscription_confirmation', 'Subscription confirmation'],
  ['subscription_cycled', 'Subscription renewed'],
  ['subscription_cycled_after_trial', 'Subscription active after its trial'],
  ['subscription_updated', 'Subscription changed'],
  ['subscription_cancellation', 'Subscription cancellation'],
  ['subscription_uncanceled', 'Subscription uncanceled'],
  ['subscription_revoked', 'Subscription ended'],
  ['subscription_paused', 'Subscription paused'],
  ['subscription_resumed', 'Subscription resumed'],
  ['subscription_past_due', 'Payment failed'],
  ['subscription_renewal_reminder', 'Renewal reminder'],
  ['subscription_trial_conversion_reminder', 'Trial ending reminder'],
  ['payment_method_expiration_reminder', 'Card expiring reminder'],
];

const DAY = 86_400;
const ADVANCE_CHOICES: readonly [number, string][] = [
  [DAY, '1 day'],
  [7 * DAY, '7 days'],
  [31 * DAY, '31 days'],
  [366 * DAY, '366 days'],
];

/** The forms of the page; a refused save shows its error in its own form. */
type FormName = 'organization' | 'subscriptions' | 'portal' | 'emails' | 'clock';
type FormStates = Partial<Record<FormName, FormState>>;

function emailForm(ctx: DashboardContext, settings: Record<string, boolean>, error?: string): HtmlValue {
  return html`<h2>Customer e-mails</h2><div class="card">${errorBox(error)}<form class="stack" method="post" action="/dashboard/${ctx.organization.id}/settings/emails">${csrfField(ctx.csrfToken)}
<fieldset><legend>Send these e-mails to customers</legend><div class="scopes">${EMAIL_KINDS.map(
    ([key, label]) =>
      html`<label class="check"><input type="checkbox" name="${key}" value="on"${settings[key] !== false ? rawHtml(' checked') : null}> ${label}</label>`,
  )}</div></fieldset><div><button type="submit">Save e-mail settings</button></div></form></div>`;
}

/** The sandbox's clock with its advance form, and the link to the outgoing mail (`/sandbox/emails`). */
async function sandboxPanel(ctx: DashboardContext, error?: string): Promise<HtmlValue> {
  if (ctx.deps.environment !== 'sandbox' || !ctx.deps.api.has('sandbox:clock_get')) return null;
  const clock = await ctx.call<{ now: string }>('sandbox:clock_get', {
    query: { organization_id: ctx.organization.id },
  });
  const now = new Date(clock.now).toISOString();
  return html`<h2>Sandbox clock</h2><div class="card">${errorBox(error)}<p>The organization's clock reads <time datetime="${now}" id="sandbox-now">${now.slice(0, 16).replace('T', ' ')} UTC</time>. Moving it runs the renewals, trial ends and reminders that fall due.</p>
<form class="row" method="post" action="/dashboard/${ctx.organization.id}/settings/clock">${csrfField(ctx.csrfToken)}<div class="field"><label for="advance">Advance by</label><select id="advance" name="seconds">${ADVANCE_CHOICES.map(
    ([seconds, label]) => html`<option value="${seconds}">${label}</option>`,
  )}</select></div><div><button type="submit">Advance the clock</button></div></form>
<p><a href="/sandbox/emails?organization_id=${ctx.organization.id}">Outgoing e-mails of the sandbox</a></p></div>`;
}

/**
 * `GET …/settings`: the organization's details, subscription and portal settings, the customer e-mail
 * switches, the sandbox's clock and mail, and links to tokens.
 */
async function showSettings(ctx: DashboardContext, forms: FormStates = {}) {
  const organization = await ctx.call('organizations:get', { params: { id: ctx.organization.id } });
  sendDashboard(ctx, {
    section: 'settings',
    title: 'Settings',
    status: Object.values(forms).find(form => form?.status)?.status,
    body: html`${heading('Settings')}${organizationForm(ctx, organization, forms.organization?.error)}
${subscriptionSettingsForm(ctx, organization.subscription_settings ?? {}, forms.subscriptions?.error)}
${portalSettingsForm(ctx, organization.customer_portal_settings ?? {}, forms.portal?.error)}
${emailForm(ctx, organization.customer_email_settings ?? {}, forms.emails?.error)}
${await sandboxPanel(ctx, forms.clock?.error)}
<h2>Access tokens</h2><div class="card"><p><a href="/settings/organizations/${ctx.organization.id}">Organization access tokens</a></p></div>`,
  });
}

/**
 * `POST …/settings/emails`: `PATCH /v1/organizations/{id}` with every kind, on or off as checked. Only
 * owners and admins may change the organization: another member sees the API's refusal.
 */
async function saveEmails(ctx: DashboardContext): Promise<void> {
  const settings = Object.fromEntries(EMAIL_KINDS.map(([key]) => [key, formField(ctx, key) === 'on']));
  await whenRefused(
    async () => {
      await ctx.call('organizations:update', {
        params: { id: ctx.organization.id },
        body: { customer_email_settings: settings },
      });
      redirectTo(ctx, '/settings', 'saved');
    },
    (error, status) => showSettings(ctx, { emails: { error, status } }),
  );
}

/**
 * `POST …/settings/<form>`: one `PATCH /v1/organizations/{id}` with the form's whole sub-objects. Only
 * owners and admins may change the organization: another member sees the API's refusal, nothing changed.
 */
const saveOrganization =
  (form: FormName, bodyOf: (field: (name: string) => string) => Record<string, unknown> | null, invalid?: string) =>
  async (ctx: DashboardContext): Promise<void> => {
    const body = bodyOf(name => formField(ctx, name));
    if (!body) return showSettings(ctx, { [form]: { error: invalid, status: 422 } });
    await whenRefused(
      async () => {
        await ctx.call('organizations:update', { params: { id: ctx.organization.id }, body });
        redirectTo(ctx, '/settings', 'saved');
      },
      (error, status) => showSettings(ctx, { [form]: { error, status } }),
    );
  };

/** `POST …/settings/clock`: `POST /v1/sandbox/clock/advance` (the sandbox's route table only). */
async function advanceClock(ctx: DashboardContext): Promise<void> {
  if (!ctx.deps.api.has('sandbox:clock_advance')) throw new ResourceNotFound();
  await whenRefused(
    async () => {
      await ctx.call('sandbox:clock_advance', {
        body: { seconds: Number(formField(ctx, 'seconds')), organization_id: ctx.organization.id },
      });
      redirectTo(ctx, '/settings', 'advanced');
    },
    (error, status) => showSettings(ctx, { clock: { error, status } }),
  );
}

export const settingsRoutes: DashboardRoute[] = [
  { method: 'get', path: '/settings', handler: ctx => showSettings(ctx) },
  { method: 'post', path: '/settings/emails', handler: saveEmails },
  { method: 'post', path: '/settings/clock', handler: advanceClock },
  { method: 'post', path: '/settings/organization', handler: saveOrganization('organization', organizationBody) },
  {
    method: 'post',
    path: '/settings/subscriptions',
    handler: saveOrganization(
      'subscriptions',
      subscriptionSettingsBody,
      'Give the grace period as a whole number of days, such as 7 (0 revokes benefits at once).',
    ),
  },
  { method: 'post', path: '/settings/portal', handler: saveOrganization('portal', portalSettingsBody) },
];
