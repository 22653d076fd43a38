// How the walk calls each GET method of SDK 1.0.1 (the same names in 2026-04, 2026-10 and 2027-01): the
// arguments, from the seeded organization, and whose token. Methods of routes the service lacks are called
// with an id that exists nowhere, to see their 404 (test/sdk/v1-walk.sdk.test.ts, NOT_YET_BUILT).
import type { WalkWorld } from './seed.js';

/** The bearer a call uses: the organization token, the customer's session (portal), or none. */
export type Caller = 'organization' | 'portal' | 'anonymous';

export interface WalkCall {
  args: (world: WalkWorld) => unknown[];
  as?: Caller;
}

/** An id no row has. */
export const NOWHERE = '00000000-0000-4000-8000-000000000000';

const none = () => [];
const id = (name: string) => (world: WalkWorld) => [world.ids[name]];
const portal = (args: WalkCall['args'] = none): WalkCall => ({ args, as: 'portal' });

export const GET_CALLS: Record<string, WalkCall> = {
  'organizations.list': { args: none },
  'organizations.get': { args: id('organization') },
  'subscriptions.list': { args: none },
  'subscriptions.export': { args: none },
  'subscriptions.get': { args: id('subscription') },
  'oauth2.authorize': { args: none },
  'oauth2.userinfo': { args: none },
  'oauth2.clients.oauth2.getClient': { args: () => [NOWHERE] },
  'benefits.list': { args: none },
  'benefits.get': { args: id('benefit') },
  'benefits.files': { args: id('downloadables') },
  'benefits.grants': { args: id('benefit') },
  'benefitGrants.list': { args: none },
  'webhooks.listWebhookEndpoints': { args: none },
  'webhooks.getWebhookEndpoint': { args: id('webhookEndpoint') },
  'webhooks.listWebhookDeliveries': { args: none },
  'products.list': { args: none },
  'products.get': { args: id('product') },
  'orders.list': { args: none },
  'orders.export': { args: none },
  'orders.get': { args: id('order') },
  'orders.invoice': { args: id('order') },
  'orders.receipt': { args: id('order') },
  'refunds.list': { args: none },
  'disputes.list': { args: none },
  'disputes.get': { args: id('dispute') },
  'checkouts.list': { args: none },
  'checkouts.get': { args: id('checkout') },
  'checkouts.clientGet': { args: id('clientSecret'), as: 'anonymous' },
  'files.list': { args: none },
  'metrics.get': { args: () => [{ start_date: '2026-01-01', end_date: '2026-01-31', interval: 'day' }] },
  'metrics.export': { args: () => [{ start_date: '2026-01-01', end_date: '2026-01-31', interval: 'day' }] },
  'metrics.limits': { args: none },
  'metrics.listDashboards': { args: none },
  'metrics.getDashboard': { args: id('metricDashboard') },
  'licenseKeys.list': { args: none },
  'licenseKeys.get': { args: id('licenseKey') },
  'licenseKeys.getActivation': { args: w => [w.ids.licenseKey, w.ids.activation] },
  'checkoutLinks.list': { args: none },
  'checkoutLinks.get': { args: id('checkoutLink') },
  'customFields.list': { args: none },
  'customFields.get': { args: id('customField') },
  'discounts.list': { args: none },
  'discounts.get': { args: id('discount') },
  'customers.list': { args: none },
  'customers.export': { args: none },
  'customers.get': { args: id('customer') },
  'customers.getExternal': { args: id('externalCustomer') },
  'customers.getState': { args: id('customer') },
  'customers.getStateExternal': { args: id('externalCustomer') },
  'customers.listPaymentMethods': { args: id('customer') },
  'customers.listPaymentMethodsExternal': { args: id('externalCustomer') },
  'customers.members.list': { args: id('customer') },
  'customers.members.listExternal': { args: id('externalCustomer') },
  'customers.members.get': { args: w => [w.ids.customer, w.ids.member] },
  'customers.members.getExternal': { args: w => [w.ids.externalCustomer, w.ids.externalMember] },
  'customerPortal.benefitGrants.list': portal(),
  'customerPortal.benefitGrants.get': portal(id('grant')),
  'customerPortal.customers.get': portal(),
  'customerPortal.customers.listPaymentMethods': portal(),
  'customerPortal.customers.checkEmailUpdate': portal(w => [{ token: w.ids.emailUpdateToken }]),
  // The portal customer's own subscription (not seat-based: an empty list of its seats).
  'customerPortal.seats.listSeats': portal(w => [{ subscription_id: w.ids.subscription }]),
  'customerPortal.seats.listClaimedSubscriptions': portal(),
  'customerPortal.customerSession.introspect': portal(),
  'customerPortal.customerSession.getAuthenticatedUser': portal(),
  'customerPortal.downloadables.list': portal(),
  'customerPortal.licenseKeys.list': portal(),
  'customerPortal.licenseKeys.get': portal(id('licenseKey')),
  'customerPortal.members.listMembers': portal(),
  'customerPortal.orders.list': portal(),
  'customerPortal.orders.get': portal(id('order')),
  'customerPortal.orders.invoice': portal(id('order')),
  'customerPortal.orders.receipt': portal(id('order')),
  'customerPortal.orders.getPaymentStatus': portal(id('order')),
  'customerPortal.organizations.get': portal(id('slug')),
  'customerPortal.subscriptions.list': portal(),
  'customerPortal.subscriptions.get': portal(id('subscription')),
  'customerPortal.wallets.list': portal(),
  'customerPortal.wallets.get': portal(id('wallet')),
  'customerSeats.listSeats': { args: w => [{ subscription_id: w.ids.seatSubscription }] },
  'customerSeats.getClaimInfo': { args: w => [w.ids.seatInvitation], as: 'anonymous' },
  'events.list': { args: none },
  'events.listNames': { args: none },
  'events.get': { args: id('event') },
  'eventTypes.list': { args: none },
  'customerMeters.list': { args: none },
  'customerMeters.get': { args: id('customerMeter') },
  'customerPortal.customerMeters.list': portal(),
  'customerPortal.customerMeters.get': portal(id('customerMeter')),
  'meters.list': { args: none },
  'meters.get': { args: id('meter') },
  'meters.quantities': {
    args: w => [
      w.ids.meter,
      { start_timestamp: '2026-01-01T00:00:00Z', end_timestamp: '2026-01-31T00:00:00Z', interval: 'day' },
    ],
  },
  'payments.list': { args: none },
  'payments.get': { args: id('payment') },
};
