import { z } from 'zod';
import { metadataInput, metadataOutput } from './metadata.schemas.js';

/** Wire shapes of checkout links (Polar's CheckoutLinkCreateProducts, CheckoutLinkUpdate, CheckoutLink). */
const dateTime = z.iso.datetime({ offset: true });
const url = z.url().min(1).max(2083);
const trialInterval = z.enum(['day', 'week', 'month', 'year']);

const settings = {
  label: z.string().max(256).nullable().optional(),
  allow_discount_codes: z.boolean().optional(),
  require_billing_address: z.boolean().optional(),
  discount_id: z.uuid().nullable().optional(),
  success_url: url.nullable().optional(),
  return_url: url.nullable().optional(),
  trial_interval: trialInterval.nullable().optional(),
  trial_interval_count: z.number().int().min(1).max(1000).nullable().optional(),
  metadata: metadataInput.optional(),
};

/**
 * CheckoutLinkCreateProducts; the deprecated CheckoutLinkCreateProduct (`product_id`) is taken too and
 * becomes a one-product list. `payment_processor` is required by Polar and only `stripe` exists.
 */
export const checkoutLinkCreateBody = z
  .object({
    payment_processor: z.literal('stripe'),
    products: z.array(z.uuid()).min(1).max(100).optional(),
    product_id: z.uuid().optional(),
    ...settings,
  })
  .superRefine((body, ctx) => {
    if (!body.products && !body.product_id)
      ctx.addIssue({ code: 'custom', path: ['products'], message: 'Field required', input: undefined });
  });

export const checkoutLinkUpdateBody = z.object({
  products: z.array(z.uuid()).min(1).max(100).nullable().optional(),
  ...settings,
  allow_discount_codes: z.boolean().nullable().optional(),
  require_billing_address: z.boolean().nullable().optional(),
});

/** The GraphQL input of a body (snake → camel; metadata kept as written). */
export function checkoutLinkInput(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || key === 'payment_processor' || key === 'product_id') continue;
    out[key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase())] = value;
  }
  if (!body.products && body.product_id) out.products = [body.product_id];
  return out;
}

const embedded = (name: string) =>
  z.record(z.string(), z.unknown()).describe(`Polar's ${name} (see the operations that serve it).`);

export const checkoutLinkResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  metadata: metadataOutput,
  payment_processor: z.literal('stripe'),
  client_secret: z.string().describe('Client secret used to access the checkout link (`polar_cl_…`).'),
  success_url: z.string().nullable(),
  return_url: z.string().nullable(),
  label: z.string().nullable(),
  allow_discount_codes: z.boolean(),
  require_billing_address: z.boolean(),
  discount_id: z.uuid().nullable(),
  trial_interval: trialInterval.nullable(),
  trial_interval_count: z.number().int().nullable(),
  seats: z.number().int().nullable().describe('Seats preset on the checkouts it opens: none here.'),
  units: z.number().int().nullable().describe('Units preset on the checkouts it opens: no unit-based prices here.'),
  organization_id: z.uuid(),
  url: z.string().describe('Following it opens a fresh checkout and redirects to its page.'),
  products: z.array(embedded('CheckoutLinkProduct')),
  discount: embedded('CheckoutLinkDiscount').nullable(),
});
