// How the write walk calls each POST/PATCH/PUT/DELETE method of SDK 1.0.1 (test/sdk/v1-write-walk.sdk.test.ts):
// in this order (a later call may use what an earlier one made, `made[method]`), with a valid body built
// from the seeded organization, and `bad`, arguments the service must refuse with the error class the
// SDK maps (HTTPValidationError for a 422 unless `error` names another). Seats are in write-calls-seats.ts;
// members, usage and metrics dashboards in write-calls-teams-usage.ts; what a call is, in write-call.ts.
import { createHash } from 'node:crypto';
import { call } from '../stack.js';
import { NOWHERE } from './calls.js';
import { badId, id, type Made, NOT_A_UUID, type WriteCall } from './write-call.js';
import { SEAT_CALLS } from './write-calls-seats.js';
import { TEAM_AND_USAGE_CALLS } from './write-calls-teams-usage.js';
import { eventually, type WriteWorld } from './write-seed.js';

const FILE = Buffer.from('write walk\n');
const licenseKey = (world: WriteWorld) => ({ key: world.ids.licenseKeyValue, organization_id: world.ids.organization });

export const WRITE_CALLS: Record<string, WriteCall> = {
  'organizations.create': {
    as: 'user',
    args: () => [{ name: 'Write walk two', slug: `write-walk-${Date.now().toString(36)}` }],
    bad: { args: () => [{ name: 5, slug: 'x' }] },
  },
  'organizations.update': {
    args: w => [w.ids.organization, { website: 'https://example.com' }],
    bad: { args: w => [w.ids.organization, { name: 5 }] },
  },

  'products.create': {
    args: () => [
      { name: 'Write walk', recurring_interval: 'month', prices: [{ amount_type: 'fixed', price_amount: 900 }] },
    ],
    bad: { args: () => [{ name: 5, prices: [] }] },
  },
  'products.update': {
    args: (_, m) => [id('products.create')(m), { description: 'Updated by the walk' }],
    bad: { args: (_, m) => [id('products.create')(m), { name: 5 }] },
  },
  'products.updateBenefits': {
    args: (w, m) => [id('products.create')(m), { benefits: [w.ids.benefit] }],
    bad: { args: (_, m) => [id('products.create')(m), { benefits: 'all' }] },
  },

  'benefits.create': {
    args: () => [{ type: 'custom', description: 'Write walk perk', properties: { note: 'Hello' } }],
    bad: { args: () => [{ type: 'custom', description: 5, properties: {} }] },
  },
  'benefits.update': {
    args: (_, m) => [id('benefits.create')(m), { type: 'custom', description: 'Renamed perk' }],
    bad: { args: (_, m) => [id('benefits.create')(m), { type: 'custom', description: 5 }] },
  },
  'benefits.delete': { args: (_, m) => [id('benefits.create')(m)], bad: badId },

  'checkoutLinks.create': {
    args: w => [{ products: [w.ids.product], payment_processor: 'stripe' }],
    bad: { args: () => [{ products: 5, payment_processor: 'stripe' }] },
  },
  'checkoutLinks.update': {
    args: (_, m) => [id('checkoutLinks.create')(m), { label: 'Walk link' }],
    bad: { args: (_, m) => [id('checkoutLinks.create')(m), { label: 5 }] },
  },
  'checkoutLinks.delete': { args: (_, m) => [id('checkoutLinks.create')(m)], bad: badId },

  'checkouts.create': {
    args: w => [{ products: [w.ids.product] }],
    bad: { args: () => [{ products: 5 }] },
  },
  'checkouts.update': {
    args: (_, m) => [id('checkouts.create')(m), { customer_email: 'write-buyer@example.com' }],
    bad: { args: (_, m) => [id('checkouts.create')(m), { customer_name: 5 }] },
  },
  'checkouts.clientUpdate': {
    as: 'anonymous',
    args: (_, m) => [m['checkouts.create']?.client_secret, { customer_name: 'Ada Buyer' }],
    bad: { args: (_, m) => [m['checkouts.create']?.client_secret, { customer_name: 5 }] },
  },
  'checkouts.clientConfirm': {
    as: 'anonymous',
    args: (_, m) => [m['checkouts.create']?.client_secret, { confirmation_token_id: 'pm_card_visa' }],
    bad: { args: (_, m) => [m['checkouts.create']?.client_secret, { product_id: NOT_A_UUID }] },
  },

  'customFields.create': {
    args: () => [{ type: 'text', slug: 'write-note', name: 'Note', properties: {} }],
    bad: { args: () => [{ type: 'text', slug: 5, name: 'Note', properties: {} }] },
  },
  'customFields.update': {
    args: (_, m) => [id('customFields.create')(m), { type: 'text', name: 'A note' }],
    bad: { args: (_, m) => [id('customFields.create')(m), { type: 'text', name: 5 }] },
  },
  'customFields.delete': { args: (_, m) => [id('customFields.create')(m)], bad: badId },

  'discounts.create': {
    args: () => [{ name: 'Write five', type: 'percentage', basis_points: 500, duration: 'once' }],
    bad: { args: () => [{ name: 'Write five', type: 'percentage', basis_points: 'many', duration: 'once' }] },
  },
  'discounts.update': {
    args: (_, m) => [id('discounts.create')(m), { name: 'Write 5' }],
    bad: { args: (_, m) => [id('discounts.create')(m), { name: 5 }] },
  },
  'discounts.delete': { args: (_, m) => [id('discounts.create')(m)], bad: badId },

  'customers.create': {
    args: () => [{ email: 'write-walker@example.com', external_id: 'write-ext' }],
    bad: { args: () => [{ email: 5 }] },
  },
  'customers.update': {
    args: (_, m) => [id('customers.create')(m), { name: 'Write Walker' }],
    bad: { args: (_, m) => [id('customers.create')(m), { name: 5 }] },
  },
  'customers.updateExternal': {
    args: () => ['write-ext', { name: 'W. Walker' }],
    bad: { args: () => ['write-ext', { name: 5 }] },
  },
  'customerSessions.create': {
    args: (_, m) => [{ customer_id: id('customers.create')(m) }],
    bad: { args: () => [{ customer_id: NOT_A_UUID }] },
  },
  'subscriptions.create': {
    args: (w, m) => [{ product_id: w.ids.freeProduct, customer_id: id('customers.create')(m) }],
    bad: { args: (_, m) => [{ product_id: NOT_A_UUID, customer_id: id('customers.create')(m) }] },
  },
  'subscriptions.update': {
    args: w => [w.ids.subscription, { cancel_at_period_end: true }],
    bad: { args: w => [w.ids.subscription, { cancel_at_period_end: 'soon' }] },
  },
  'customerPortal.subscriptions.update': {
    as: 'portal',
    args: w => [w.ids.subscription, { cancel_at_period_end: false }],
    bad: { args: w => [w.ids.subscription, { cancel_at_period_end: 'never' }] },
  },
  'customerPortal.subscriptions.cancel': { as: 'portal', args: w => [w.ids.subscription], bad: badId },
  'subscriptions.revoke': { args: (_, m) => [id('subscriptions.create')(m)], bad: badId },
  'customers.delete': { args: (_, m) => [id('customers.create')(m)], bad: badId },
  'customers.deleteExternal': {
    args: async w => {
      await w.api('POST', '/v1/customers/', { email: 'write-gone@example.com', external_id: 'write-gone' });
      return ['write-gone'];
    },
  },

  // A draft order (off-session charges are on), finalized below against the customer's saved card.
  'orders.create': {
    args: w => [{ product_id: w.ids.product, customer_id: w.ids.customer, description: 'Walk extra' }],
    bad: { args: w => [{ product_id: NOT_A_UUID, customer_id: w.ids.customer }] },
  },
  'orders.update': {
    args: w => [w.ids.order, { billing_name: 'Ada W. Walker' }],
    bad: { args: w => [w.ids.order, { billing_name: 5 }] },
  },
  'orders.finalize': {
    args: (_, m) => [id('orders.create')(m), {}],
    bad: { args: (_, m) => [id('orders.create')(m), { payment_method_id: NOT_A_UUID }] },
  },
  // An order without a billing address cannot have an invoice: the SDK's 422 of this method.
  'orders.generateInvoice': {
    args: w => [w.ids.order],
    bad: { args: w => [w.ids.orderWithoutAddress], error: 'MissingInvoiceBillingDetails' },
  },
  'refunds.create': {
    args: w => [{ order_id: w.ids.order, reason: 'customer_request', amount: 500 }],
    bad: { args: w => [{ order_id: w.ids.order, reason: 'whim', amount: 1 }] },
  },
  'disputes.accept': { args: w => [w.ids.dispute], bad: badId },

  'files.create': {
    args: () => [
      {
        name: 'walk.txt',
        mime_type: 'text/plain',
        size: FILE.length,
        checksum_sha256_base64: createHash('sha256').update(FILE).digest('base64'),
        upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: FILE.length }] },
        service: 'downloadable',
      },
    ],
    bad: { args: () => [{ name: 5, service: 'downloadable' }] },
  },
  'files.uploaded': {
    args: async (w, m) => {
      const created = m['files.create'];
      if (!created) return [NOWHERE, { id: 'x', path: 'x', parts: [] }];
      // The part goes to the link's path on the server the test talks to (links carry the public URL).
      const link = new URL(created.upload.parts[0].url);
      const put = await fetch(`${w.baseUrl}${link.pathname}${link.search}`, { method: 'PUT', body: FILE });
      const parts = [{ number: 1, checksum_etag: put.headers.get('etag'), checksum_sha256_base64: null }];
      return [created.id, { id: created.upload.id, path: created.upload.path, parts }];
    },
    bad: { args: (_, m) => [id('files.create')(m), { id: 'x' }] },
  },
  'files.update': {
    args: (_, m) => [id('files.create')(m), { name: 'renamed.txt' }],
    bad: { args: (_, m) => [id('files.create')(m), { name: 5 }] },
  },
  'files.delete': { args: (_, m) => [id('files.create')(m)], bad: badId },

  'licenseKeys.update': {
    args: w => [w.ids.licenseKey, { usage: 1 }],
    bad: { args: w => [w.ids.licenseKey, { usage: 'lots' }] },
  },
  'licenseKeys.validate': { args: w => [licenseKey(w)], bad: { args: w => [{ ...licenseKey(w), key: 5 }] } },
  'licenseKeys.activate': {
    args: w => [{ ...licenseKey(w), label: 'desktop' }],
    bad: { args: w => [licenseKey(w)] },
  },
  'licenseKeys.deactivate': {
    args: (w, m) => [{ ...licenseKey(w), activation_id: id('licenseKeys.activate')(m) }],
    bad: { args: w => [{ ...licenseKey(w), activation_id: NOT_A_UUID }] },
  },
  'customerPortal.licenseKeys.validate': {
    as: 'portal',
    args: w => [licenseKey(w)],
    bad: { args: w => [{ ...licenseKey(w), key: 5 }] },
  },
  'customerPortal.licenseKeys.activate': {
    as: 'portal',
    args: w => [{ ...licenseKey(w), label: 'tablet' }],
    bad: { args: w => [licenseKey(w)] },
  },
  'customerPortal.licenseKeys.deactivate': {
    as: 'portal',
    args: (w, m) => [{ ...licenseKey(w), activation_id: id('customerPortal.licenseKeys.activate')(m) }],
    bad: { args: w => [{ ...licenseKey(w), activation_id: NOT_A_UUID }] },
  },
  'licenseKeys.rotate': { args: w => [w.ids.licenseKey], bad: badId },
  'customerPortal.licenseKeys.rotate': { as: 'portal', args: w => [w.ids.licenseKey], bad: badId },

  'customerPortal.customers.update': {
    as: 'portal',
    args: () => [{ billing_name: 'Ada Walker' }],
    bad: { args: () => [{ billing_name: 5 }] },
  },
  'customerPortal.customers.addPaymentMethod': {
    as: 'portal',
    args: () => [{ confirmation_token_id: 'pm_card_visa', set_default: false, return_url: 'https://example.com/done' }],
    bad: { args: () => [{ confirmation_token_id: 5, set_default: false, return_url: 'https://example.com/done' }] },
  },
  // A card that asks for 3-D Secure: its setup waits for the customer, and the confirm says so.
  'customerPortal.customers.confirmPaymentMethod': {
    as: 'portal',
    args: async w => {
      const added = await call(w.baseUrl, 'POST', '/v1/customer-portal/customers/me/payment-methods', {
        token: w.customerSession,
        body: {
          confirmation_token_id: '4000 0027 6000 3184',
          set_default: false,
          return_url: 'https://example.com/back',
        },
      });
      const secret = String(added.body?.client_secret ?? 'seti_none_secret_');
      return [{ setup_intent_id: secret.slice(0, secret.indexOf('_secret_')), set_default: false }];
    },
    bad: { args: () => [{ setup_intent_id: 5, set_default: false }] },
  },
  'customerPortal.customers.deletePaymentMethod': {
    as: 'portal',
    args: (_, m) => [m['customerPortal.customers.addPaymentMethod']?.payment_method?.id ?? NOWHERE],
    bad: badId,
  },
  'customerPortal.benefitGrants.update': {
    as: 'portal',
    args: async w => {
      const grant = await w.api('GET', `/v1/benefit-grants/?customer_id=${w.ids.customer}&limit=100`);
      const custom = grant.items.find((g: { benefit: { type: string } }) => g.benefit.type === 'custom');
      return [custom?.id ?? NOWHERE, { benefit_type: 'custom' }];
    },
    bad: { args: w => [w.ids.grant, { benefit_type: 'nope' }] },
  },
  'customerPortal.orders.update': {
    as: 'portal',
    args: w => [w.ids.order, { billing_name: 'Ada P. Walker' }],
    bad: { args: w => [w.ids.order, { billing_name: 5 }] },
  },
  'customerPortal.orders.generateInvoice': {
    as: 'portal',
    args: w => [w.ids.order],
    bad: { args: w => [w.ids.orderWithoutAddress], error: 'MissingInvoiceBillingDetails' },
  },
  'customerPortal.orders.confirmRetryPayment': {
    as: 'portal',
    args: w => [w.ids.order, { confirmation_token_id: 'pm_card_visa' }],
  },
  // A team's e-mail cannot change (docs/members.md): an individual customer asks.
  'customerPortal.customers.requestEmailUpdate': {
    as: 'individualPortal',
    args: () => [{ email: 'write-walker-new@example.com' }],
    bad: { args: () => [{ email: 5 }] },
  },
  // Last of the portal's: the customer's e-mail changes.
  'customerPortal.customers.verifyEmailUpdate': {
    as: 'individualPortal',
    args: async w => [{ token: await emailUpdateTokenTo(w, 'write-walker-new@example.com') }],
    bad: { args: () => [{ token: 5 }], error: 'CustomerPortalCustomersVerifyEmailUpdate422Error' },
  },

  ...SEAT_CALLS,

  'webhooks.createWebhookEndpoint': {
    args: () => [{ url: 'https://example.com/write-hook', format: 'raw', events: ['customer.created'] }],
    bad: { args: () => [{ url: 'not a url', format: 'raw', events: ['customer.created'] }] },
  },
  'webhooks.updateWebhookEndpoint': {
    args: (_, m) => [id('webhooks.createWebhookEndpoint')(m), { events: ['customer.created', 'customer.updated'] }],
    bad: { args: (_, m) => [id('webhooks.createWebhookEndpoint')(m), { events: ['no.such.event'] }] },
  },
  'webhooks.resetWebhookEndpointSecret': {
    args: (_, m) => [id('webhooks.createWebhookEndpoint')(m)],
    bad: badId,
  },
  'webhooks.redeliverWebhookEvent': {
    args: async w => {
      await w.api('POST', '/v1/customers/', { email: 'write-hooked@example.com' });
      const event = await eventually(async () => {
        // What the delivery log calls the event (`webhook_event.id`) is the message: one per event and endpoint.
        const [row] = await w.sql<{ id: string }>(
          'webhooks',
          `select m.id from webhooks.messages m join webhooks.events e on e.id = m.event_id
            where m.organization_id = ? and e.type = 'customer.created'`,
          [w.ids.organization],
        );
        return row?.id;
      });
      return [event];
    },
    bad: badId,
  },
  'webhooks.deleteWebhookEndpoint': { args: (_, m) => [id('webhooks.createWebhookEndpoint')(m)], bad: badId },

  'products.delete': { args: (_, m) => [id('products.create')(m)], bad: badId },

  ...TEAM_AND_USAGE_CALLS,

  // OAuth (NOT_WALKED in the test): a browser's authorization code, an OAuth token or a registered client.
  // A client registered without a session is managed with its registration token (RFC 7592).
  'oauth2.clients.oauth2.createClient': {
    as: 'anonymous',
    args: () => [{ client_name: 'Walk app', redirect_uris: ['https://example.com/callback'] }],
  },
  // SDK 1.0.1 sends these three without a body (their form bodies are not generated): NOT_WALKED.
  'oauth2.introspectToken': { as: 'anonymous', args: () => [] },
  'oauth2.revokeToken': { as: 'anonymous', args: () => [] },
  'oauth2.requestToken': { as: 'anonymous', args: () => [] },
  'oauth2.clients.oauth2.updateClient': {
    token: m => m['oauth2.clients.oauth2.createClient']?.registration_access_token ?? 'none',
    args: (_, m) => {
      const { client_id } = clientCredentials(m);
      return [client_id, { client_id, client_name: 'Walk app 2', redirect_uris: ['https://example.com/callback'] }];
    },
  },
  'oauth2.clients.oauth2.deleteClient': {
    token: m => m['oauth2.clients.oauth2.createClient']?.registration_access_token ?? 'none',
    args: (_, m) => [clientCredentials(m).client_id],
  },
};

function clientCredentials(made: Made): { client_id: string } {
  return { client_id: made['oauth2.clients.oauth2.createClient']?.client_id ?? 'none' };
}

/** The e-mail change token sent to `email` (the newest request replaces the seeded one). */
async function emailUpdateTokenTo(w: WriteWorld, email: string): Promise<string> {
  return eventually(async () => {
    const [mail] = await w.sql<{ text_body: string }>(
      'billing',
      'select text_body from billing.outgoing_emails where to_address = ? order by created_at desc limit 1',
      [email],
    );
    return /verify-email\?token=([\w-]+)/.exec(mail?.text_body ?? '')?.[1];
  });
}
