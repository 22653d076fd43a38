import { z } from 'zod';
import { addressInput, addressResponse } from './customers.schemas.js';
import { metadataInput, metadataOutput } from './metadata.schemas.js';
import { priceCreate } from './products.schemas.js';

/** Wire shapes of checkouts, orders and payments (docs/polar/resources.md#order, docs/polar/resources.md#checkout), for validation and OpenAPI. */
const dateTime = z.iso.datetime({ offset: true });
const url = z.url().min(1).max(2083);
const trialInterval = z.enum(['day', 'week', 'month', 'year']);
export const customFieldData = z.record(z.string(), z.union([z.string(), z.number().int(), z.boolean(), z.null()]));
const seats = z.number().int().min(1).max(10000);
const taxBehavior = z.enum(['inclusive', 'exclusive']);

/** One rate's share of the tax (Polar's TaxBreakdownItem, docs/tax.md#orders). */
export const taxBreakdownItem = z.object({
  rate_type: z.enum(['percentage', 'fixed']),
  rate: z.number().nullable(),
  display_name: z.string(),
  country: z.string().nullable(),
  state: z.string().nullable(),
  subdivision: z.string().nullable(),
  amount: z.number().int(),
  taxability_reason: z.enum([
    'standard_rated',
    'reverse_charge',
    'not_collecting',
    'not_subject_to_tax',
    'customer_exempt',
    'product_exempt',
    'not_supported',
  ]),
});

/** Fields of CheckoutUpdatePublic (the client's), shared by CheckoutUpdate and CheckoutConfirmStripe. */
const clientFields = {
  custom_field_data: customFieldData.optional(),
  product_id: z.uuid().nullable().optional(),
  product_price_id: z.uuid().nullable().optional(),
  amount: z.number().int().min(0).nullable().optional(),
  seats: seats.nullable().optional(),
  is_business_customer: z.boolean().nullable().optional(),
  customer_name: z.string().max(256).nullable().optional(),
  customer_email: z.email().nullable().optional(),
  customer_billing_name: z.string().nullable().optional(),
  customer_billing_address: addressInput.nullable().optional(),
  customer_tax_id: z.string().nullable().optional(),
  locale: z.string().nullable().optional(),
};

export const checkoutClientUpdateBody = z.object({
  ...clientFields,
  payment_method_type: z.string().nullable().optional(),
  discount_code: z.string().nullable().optional(),
  allow_trial: z.literal(false).nullable().optional(),
});

export const checkoutConfirmBody = checkoutClientUpdateBody.extend({
  confirmation_token_id: z.string().nullable().optional(),
});

const merchantFields = {
  trial_interval: trialInterval.nullable().optional(),
  trial_interval_count: z.number().int().min(1).max(1000).nullable().optional(),
  metadata: metadataInput.optional(),
  discount_id: z.uuid().nullable().optional(),
  allow_discount_codes: z.boolean().optional(),
  require_billing_address: z.boolean().optional(),
  allow_trial: z.boolean().optional(),
  customer_ip_address: z.string().nullable().optional(),
  customer_metadata: metadataInput.nullable().optional(),
  success_url: url.nullable().optional(),
  return_url: url.nullable().optional(),
  embed_origin: z.string().nullable().optional(),
  currency: z.string().length(3).nullable().optional(),
};

export const checkoutUpdateBody = z.object({ ...clientFields, ...merchantFields });

/** CheckoutProductsCreate (the spec's CheckoutCreate). */
export const checkoutCreateBody = z.object({
  ...merchantFields,
  custom_field_data: customFieldData.optional(),
  amount: z.number().int().min(0).nullable().optional(),
  seats: seats.nullable().optional(),
  min_seats: seats.nullable().optional(),
  max_seats: seats.nullable().optional(),
  customer_id: z.uuid().nullable().optional(),
  is_business_customer: z.boolean().optional(),
  external_customer_id: z.string().nullable().optional(),
  customer_name: z.string().max(256).nullable().optional(),
  customer_email: z.email().nullable().optional(),
  customer_billing_name: z.string().nullable().optional(),
  customer_billing_address: addressInput.nullable().optional(),
  customer_tax_id: z.string().nullable().optional(),
  subscription_id: z.uuid().nullable().optional(),
  locale: z.string().nullable().optional(),
  products: z.array(z.uuid()).min(1),
  prices: z.record(z.string(), z.array(priceCreate)).nullable().optional(),
});

/** The GraphQL input of a body (snake → camel; metadata maps kept as written; money as numbers). */
export function checkoutInput(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || key === 'prices' || key === 'payment_method_type') continue;
    const camel = key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
    if (key === 'customer_billing_address' && value) {
      const a = value as Record<string, unknown>;
      out[camel] = { ...a, postalCode: a.postal_code ?? null, postal_code: undefined };
      delete (out[camel] as Record<string, unknown>).postal_code;
      continue;
    }
    out[camel] = value;
  }
  return out;
}

/** An embedded object documented by its own operations (`GET /v1/products/{id}`, …). */
const embedded = (name: string) =>
  z.record(z.string(), z.unknown()).describe(`Polar's ${name} (see the operations that serve it).`);

const checkoutStatus = z.enum(['open', 'expired', 'confirmed', 'succeeded', 'failed']);

export const checkoutResponse = z.looseObject({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  payment_processor: z.literal('stripe'),
  status: checkoutStatus,
  client_secret: z.string(),
  url: z.string(),
  expires_at: dateTime,
  success_url: z.string(),
  amount: z.number().int(),
  units: z.number().int().nullable(),
  min_units: z.number().int().nullable(),
  max_units: z.number().int().nullable(),
  discount_amount: z.number().int(),
  net_amount: z.number().int(),
  tax_amount: z.number().int().nullable(),
  tax_behavior: taxBehavior.nullable(),
  tax_breakdown: z.array(taxBreakdownItem),
  total_amount: z.number().int(),
  currency: z.string(),
  organization_id: z.uuid(),
  product_id: z.uuid().nullable(),
  product_price_id: z.uuid().nullable(),
  discount_id: z.uuid().nullable(),
  customer_id: z.uuid().nullable(),
  customer_billing_address: addressResponse.nullable(),
  metadata: metadataOutput,
  // Products and prices are documented on the products operations; inlined here they would double
  // the document's size (the generator does not share schemas).
  products: z.array(embedded('CheckoutProduct')),
  product: embedded('CheckoutProduct').nullable(),
  product_price: embedded('ProductPrice').nullable(),
});

export const checkoutPublicResponse = checkoutResponse.extend({
  organization: z.looseObject({ id: z.uuid(), name: z.string(), slug: z.string() }),
  customer_session_token: z.string().nullable().optional(),
});

export const orderResponse = z.looseObject({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  status: z.enum(['draft', 'pending', 'paid', 'refunded', 'partially_refunded', 'void']),
  paid: z.boolean(),
  subtotal_amount: z.number().int(),
  discount_amount: z.number().int(),
  net_amount: z.number().int(),
  tax_amount: z.number().int(),
  tax_behavior: taxBehavior.nullable(),
  tax_breakdown: z.array(taxBreakdownItem),
  total_amount: z.number().int(),
  applied_balance_amount: z.number().int(),
  due_amount: z.number().int(),
  refunded_amount: z.number().int(),
  refunded_tax_amount: z.number().int(),
  refundable_amount: z.number().int(),
  currency: z.string(),
  billing_reason: z.string(),
  invoice_number: z.string().nullable(),
  units: z.number().int().nullable(),
  customer_id: z.uuid(),
  customer: embedded('OrderCustomer'),
  items: z.array(
    z.object({
      id: z.uuid(),
      created_at: dateTime,
      modified_at: dateTime.nullable(),
      label: z.string(),
      amount: z.number().int(),
      tax_amount: z.number().int(),
      proration: z.boolean(),
      product_price_id: z.uuid().nullable(),
      start_timestamp: dateTime.nullable().meta({ description: 'Start of the period the line covers.' }),
      end_timestamp: dateTime.nullable().meta({ description: 'End of the period the line covers.' }),
    }),
  ),
  metadata: metadataOutput,
});

export const paymentResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  processor: z.literal('stripe'),
  status: z.enum(['pending', 'succeeded', 'failed']),
  trigger: z
    .enum([
      'purchase',
      'subscription_cycle',
      'retry_dunning',
      'retry_customer',
      'retry_payment_method_update',
      'retry_admin',
    ])
    .nullable()
    .describe('What started this payment attempt: the purchase, a renewal, or a retry.'),
  amount: z.number().int(),
  currency: z.string(),
  method: z.string(),
  decline_reason: z.string().nullable(),
  decline_message: z.string().nullable(),
  organization_id: z.uuid(),
  checkout_id: z.uuid().nullable(),
  order_id: z.uuid().nullable(),
  processor_metadata: z.record(z.string(), z.unknown()),
  method_metadata: z.record(z.string(), z.unknown()),
});
