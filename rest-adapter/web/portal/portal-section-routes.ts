import type express from 'express';
import type { Request } from 'express';
import { DomainError } from '../../../kit/errors.js';
import { verifyCsrf } from '../../web-kit/csrf.js';
import { billingBody, type BillingForm, billingFormOf } from './portal-account.js';
import { field, FORM_EXPIRED, message, messageOf } from './portal-http.js';
import type { PortalPages } from './portal-pages.js';
import { type PortalContext, portalSections } from './portal-views.js';

/** The portal's home (to its first section) and each section's page (`/portal/<slug>/<path>`). */
export function sectionRoutes(portal: express.Router, pages: PortalPages): void {
  portal.get(
    '/',
    pages.page(async (req, res) => {
      const ctx = pages.contextOf(req, res);
      const first = portalSections().find(section => section.available(ctx));
      res.redirect(303, `${ctx.base}/${first?.path ?? 'billing'}`);
    }),
  );

  for (const section of portalSections()) {
    portal.get(
      `/${section.path}`,
      pages.page(async (req, res) => {
        const ctx = pages.contextOf(req, res);
        if (!section.available(ctx)) return message(res, ctx.organization, 'Not found', 'There is nothing here.', 404);
        await pages.show(ctx, section.label, await section.render(ctx), section.id);
      }),
    );
  }
}

const BILLING_FIELDS = ['billing_name', 'line1', 'line2', 'postal_code', 'city', 'state', 'country', 'tax_id'];

/** The billing form's fields, trimmed. */
function billingForm(req: Request): BillingForm {
  return Object.fromEntries(BILLING_FIELDS.map(k => [k, field(req, k).trim()]));
}

/** The customer update the form asks for: the address only when any part of it was given. */
function billingUpdate(form: BillingForm): Record<string, unknown> {
  const address = form.line1 || form.city || form.postal_code || form.country;
  return {
    billing_name: form.billing_name ?? '',
    ...(address
      ? {
          billing_address: {
            line1: form.line1 || null,
            line2: form.line2 || null,
            postal_code: form.postal_code || null,
            city: form.city || null,
            state: form.state || null,
            country: (form.country ?? '').toUpperCase(),
          },
        }
      : {}),
    tax_id: form.tax_id ?? '',
  };
}

/** The billing details' post: saved through the API, or the form again with the API's refusal. */
export function billingRoutes(portal: express.Router, pages: PortalPages): void {
  portal.post(
    '/billing',
    pages.page(async (req, res) => {
      const ctx = pages.contextOf(req, res);
      if (!verifyCsrf(req)) return message(res, ctx.organization, 'Not allowed', FORM_EXPIRED, 403);
      const form = billingForm(req);
      try {
        await ctx.call('customer_portal:customers:update', { body: billingUpdate(form) });
      } catch (error) {
        if (!(error instanceof DomainError) || error.status >= 500) throw error;
        return showBillingRefusal(pages, ctx, messageOf(error), form);
      }
      res.redirect(303, `${ctx.base}/billing?done=billing`);
    }),
  );
}

/** The billing page again with an API's refusal of one of its forms (the billing form as sent, or as stored). */
export async function showBillingRefusal(
  pages: PortalPages,
  ctx: PortalContext,
  error: string,
  form?: BillingForm,
): Promise<void> {
  const me = await ctx.call('customer_portal:customers:get');
  const body = billingBody({
    base: ctx.base,
    csrfToken: ctx.csrfToken,
    email: me.email,
    form: form ?? billingFormOf(me),
    emailChange: ctx.organization.customerPortalSettings.customer.allow_email_change,
    error,
  });
  return pages.show(ctx, 'Billing details', body, 'billing', 400);
}
