import { z } from 'zod';
import {
  CUSTOMER_EMAIL_UPDATE_TOKEN,
  CUSTOMER_NAME_MAX_LENGTH,
  CUSTOMER_PORTAL_READ,
  CUSTOMER_PORTAL_WRITE,
  customerPaymentMethodWire,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, toInput, toWire } from './common.js';
import { addressInput, customerPortalCustomerResponse } from './customers.schemas.js';
import type { Route } from './route.js';

/** Polar's CustomerPortalCustomerUpdate (`default_payment_method_id` is not offered yet). */
const customerPortalCustomerUpdate = z.object({
  billing_name: z.string().max(CUSTOMER_NAME_MAX_LENGTH).nullish(),
  billing_address: addressInput.nullish(),
  tax_id: z.string().max(64).nullish(),
});

/** The Customer Portal API: a customer session token (`polar_cst_`) and nothing else. */

const dateTime = z.iso.datetime({ offset: true });
/** Polar's CustomerPaymentMethod, served by the portal and by `/v1/customers/{id}/payment-methods`. */
export const paymentMethodResponse = z.looseObject({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  processor: z.literal('stripe'),
  customer_id: z.uuid(),
  type: z.string(),
  method_metadata: z
    .object({
      brand: z.string(),
      last4: z.string(),
      exp_month: z.number().int(),
      exp_year: z.number().int(),
      wallet: z.string().nullable(),
    })
    .optional(),
  is_default: z.boolean(),
});

const paymentMethodCreateBody = z.object({
  confirmation_token_id: z
    .string()
    .meta({ description: "Stripe's confirmation token; in the sandbox a test method name such as pm_card_visa." }),
  set_default: z.boolean(),
  return_url: z.url().meta({ description: 'Where an authentication step sends the customer back.' }),
});

/** Polar's CustomerPaymentMethodCreateResponse: the saved method, or the setup's 3-D Secure client secret. */
const paymentMethodCreateResponse = z.union([
  z.object({ status: z.literal('succeeded'), payment_method: paymentMethodResponse }),
  z.object({ status: z.literal('requires_action'), client_secret: z.string() }),
]);

export const customerPortalCustomerRoutes: Route[] = [
  {
    operationId: 'customer_portal:customers:get',
    method: 'get',
    path: '/v1/customer-portal/customers/me',
    summary: 'Get the authenticated customer',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    operation: 'CustomerPortalCustomersGet',
    variables: () => ({}),
    result: data => toWire(data.customerPortalMe),
    status: 200,
    response: customerPortalCustomerResponse,
  },
  {
    operationId: 'customer_portal:customers:update',
    method: 'patch',
    path: '/v1/customer-portal/customers/me',
    summary: 'Update the authenticated customer',
    description:
      "The customer's billing name, billing address and tax id. An empty string clears the name or tax id; a billing address cannot be reset to null once set (422).",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    body: customerPortalCustomerUpdate,
    operation: 'CustomerPortalCustomersUpdate',
    variables: ({ body }) => {
      const b = body as z.output<typeof customerPortalCustomerUpdate>;
      return {
        input: {
          billingName: b.billing_name ?? null,
          billingAddress: b.billing_address ? toInput(b.billing_address) : null,
          billingAddressNull: b.billing_address === null ? true : null,
          ...(b.tax_id !== undefined ? { taxId: b.tax_id || null } : {}),
        },
      };
    },
    result: data => toWire(data.customerPortalUpdateMe),
    status: 200,
    response: customerPortalCustomerResponse,
  },
  {
    operationId: 'customer_portal:customers:list_payment_methods',
    method: 'get',
    path: '/v1/customer-portal/customers/me/payment-methods',
    summary: "List the customer's saved payment methods",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    query: z.object({ ...pageQuery }),
    operation: 'CustomerPortalPaymentMethodsList',
    variables: ({ query }) => ({ page: query.page, limit: query.limit }),
    result: data => ({
      items: data.customerPortalPaymentMethods.items.map(customerPaymentMethodWire),
      pagination: toWire(data.customerPortalPaymentMethods.pagination),
    }),
    status: 200,
    response: listOf(paymentMethodResponse),
  },
  {
    operationId: 'customer_portal:customers:add_payment_method',
    method: 'post',
    path: '/v1/customer-portal/customers/me/payment-methods',
    summary: 'Save a payment method for later charges (set_default: what renewals charge)',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    body: paymentMethodCreateBody,
    operation: 'CustomerPortalPaymentMethodsAdd',
    variables: ({ body }) => ({
      input: {
        confirmationTokenId: body.confirmation_token_id,
        setDefault: body.set_default,
        returnUrl: body.return_url,
      },
    }),
    result: data => paymentMethodCreateWire(data.customerPortalAddPaymentMethod),
    status: 201,
    response: paymentMethodCreateResponse,
    errors: [400],
  },
  {
    operationId: 'customer_portal:customers:confirm_payment_method',
    method: 'post',
    path: '/v1/customer-portal/customers/me/payment-methods/confirm',
    summary: 'Keep a payment method whose setup waited for 3-D Secure (after the customer authenticated)',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    body: z.object({ setup_intent_id: z.string().min(1), set_default: z.boolean() }).strict(),
    operation: 'CustomerPortalPaymentMethodsConfirm',
    variables: ({ body }) => ({ input: { setupIntentId: body.setup_intent_id, setDefault: body.set_default } }),
    result: data => paymentMethodCreateWire(data.customerPortalConfirmPaymentMethod),
    status: 201,
    response: paymentMethodCreateResponse,
    errors: [400, 403],
  },
  {
    operationId: 'customer_portal:customers:delete_payment_method',
    method: 'delete',
    path: '/v1/customer-portal/customers/me/payment-methods/{id}',
    summary: 'Remove a saved payment method (400 when a subscription still needs it)',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    params: idParams,
    operation: 'CustomerPortalPaymentMethodsDelete',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [400, 404],
  },
  {
    operationId: 'customer_portal:customers:request_email_update',
    method: 'post',
    path: '/v1/customer-portal/customers/me/email-update/request',
    summary: 'Request an e-mail change',
    description:
      'E-mails a verification link (30 minutes, once) to the new address; nothing changes until it is verified. 403 when the organization turned `customer_portal_settings.customer.allow_email_change` off; 422 for a team customer or the current address. In the `sign_in` rate-limit zone.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    body: z.object({ email: z.email().max(320) }),
    operation: 'CustomerPortalCustomersRequestEmailUpdate',
    variables: ({ body }) => ({ email: body.email }),
    // Polar's 202 carries a JSON `null` (SDK 1.0.1 parses a body).
    result: () => null,
    status: 202,
    errors: [403],
  },
  {
    operationId: 'customer_portal:customers:check_email_update',
    method: 'get',
    path: '/v1/customer-portal/customers/me/email-update/check',
    summary: 'Check an e-mail change token',
    description:
      'No credential: the token is the proof. 204 while it is valid (it is not spent); 401 `InvalidCustomerEmailUpdate` when unknown, used, replaced by a newer request or expired.',
    tag: 'customer_portal',
    access: CUSTOMER_EMAIL_UPDATE_TOKEN,
    query: z.object({ token: z.string().max(128) }),
    operation: 'CustomerPortalCustomersCheckEmailUpdate',
    variables: ({ query }) => ({ token: query.token }),
    result: () => undefined,
    status: 204,
  },
  {
    operationId: 'customer_portal:customers:verify_email_update',
    method: 'post',
    path: '/v1/customer-portal/customers/me/email-update/verify',
    summary: 'Verify an e-mail change',
    description:
      "No credential: the token is the proof. Makes the change (the address is verified; `customer.updated`; the old address is told) and answers a new customer session token. 401 `InvalidCustomerEmailUpdate` for a token that is not valid; 422 at `token` when the address became another customer's.",
    tag: 'customer_portal',
    access: CUSTOMER_EMAIL_UPDATE_TOKEN,
    body: z.object({ token: z.string().max(128) }),
    operation: 'CustomerPortalCustomersVerifyEmailUpdate',
    variables: ({ body }) => ({ token: body.token }),
    result: data => ({ token: data.customerPortalVerifyEmailUpdate.token }),
    status: 200,
    response: z.object({ token: z.string() }),
  },
];

function paymentMethodCreateWire(r: any) {
  return r.status === 'succeeded'
    ? { status: 'succeeded', payment_method: customerPaymentMethodWire(r.paymentMethod) }
    : { status: r.status, client_secret: r.clientSecret };
}
