// A rich organization for the SDK 1.0.1 walk (test/sdk/v1-walk.sdk.test.ts): one of every object the GET
// methods read, made through the public API in the sandbox (test processor), so each read has a real row.
import { benefitHelpers } from '../benefits.js';
import { uploadFile } from '../portal-benefits.js';
import { call, createTenant, type Tenant, type TestStack } from '../stack.js';

export interface WalkWorld {
  owner: Tenant;
  /** Ids and secrets the walk's calls name, by what they are. */
  ids: Record<string, string>;
  /** The customer's session token (`polar_cst_...`), the portal methods' bearer. */
  customerSession: string;
}

export async function seedWalkOrganization(stack: TestStack): Promise<WalkWorld> {
  const owner = await createTenant(stack.sandbox);
  const base = stack.sandbox.baseUrl;
  const { benefit, product, sell } = benefitHelpers(() => ({ stack, owner, base }));
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await call(base, method, path, { token: owner.oat, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };

  const file = await uploadFile(stack.sandbox, owner, 'manual.txt', Buffer.from('the manual\n'));
  const custom = await benefit({ type: 'custom', description: 'Priority support', properties: { note: 'Hi' } });
  const licenseKeys = await benefit({
    type: 'license_keys',
    description: 'Licence',
    properties: { prefix: 'WALK', activations: { limit: 3, enable_customer_admin: true }, limit_usage: 10 },
  });
  const downloadables = await benefit({
    type: 'downloadables',
    description: 'Manual',
    properties: { files: [file.id] },
  });
  const oneTime = await product({ name: 'Lifetime', recurring_interval: null, prices: [fixed(5000)] });
  await api('POST', `/v1/products/${oneTime}/benefits`, { benefits: [custom.id, licenseKeys.id, downloadables.id] });
  const monthly = await product({ name: 'Pro monthly', prices: [fixed(1900)] });
  const seats = await product({
    name: 'Team seats',
    prices: [
      {
        amount_type: 'seat_based',
        price_currency: 'usd',
        seat_tiers: { seat_tier_type: 'volume', tiers: [{ min_seats: 1, max_seats: null, price_per_seat: 1000 }] },
      },
    ],
  });

  const order = await sell(oneTime, 'walker@example.com');
  await sell(monthly, 'walker@example.com');
  const customerId: string = order.customer_id;
  // Invoices are made on request (docs/interface.md): the invoice reads need one.
  await api('PATCH', `/v1/orders/${order.id}`, {
    billing_name: 'Ada Walker',
    billing_address: { country: 'US', line1: '1 Main St', city: 'Albany', postal_code: '12207', state: 'US-NY' },
  });
  const invoice = await call(base, 'POST', `/v1/orders/${order.id}/invoice`, { token: owner.oat });
  if (invoice.status !== 202) throw new Error(`invoice: ${invoice.status} ${invoice.text}`);
  await api('PATCH', `/v1/customers/${customerId}`, { external_id: 'walk-ext' });
  const subscription = (await api('GET', `/v1/subscriptions/?customer_id=${customerId}`)).items[0];
  const refund = await api('POST', '/v1/refunds/', { order_id: order.id, reason: 'customer_request', amount: 1000 });
  const discount = await api('POST', '/v1/discounts/', {
    name: 'Walk ten',
    type: 'percentage',
    basis_points: 1000,
    duration: 'once',
  });
  const link = await api('POST', '/v1/checkout-links/', { products: [monthly], payment_processor: 'stripe' });
  const checkout = await api('POST', '/v1/checkouts/', { products: [monthly] });
  // A seat-based subscription with one pending seat: the seat reads need its list and its invitation
  // (sold before the webhook endpoint exists, so its deliveries stay as they were).
  await api('PATCH', `/v1/organizations/${owner.organizationId}`, {
    feature_settings: { seat_based_pricing_enabled: true },
  });
  const teamOrder = await sell(seats, 'team-lead@example.com');
  await api('POST', '/v1/customer-seats', {
    subscription_id: teamOrder.subscription_id,
    email: 'seat-holder@example.com',
  });
  const [invitation] = await stack.sandbox.environment.billing.orm.em
    .fork()
    .execute<{ text_body: string }[]>(
      `select text_body from billing.outgoing_emails where kind = 'customer_seat_invitation' and organization_id = ?`,
      [owner.organizationId],
    );
  const invitationToken = /Your invitation token: (\S+)/.exec(invitation?.text_body ?? '')?.[1] ?? 'missing';
  const endpoint = await api('POST', '/v1/webhooks/endpoints', {
    url: 'https://example.com/hook',
    format: 'raw',
    events: ['order.created'],
  });
  const key = (await api('GET', `/v1/license-keys/?benefit_id=${licenseKeys.id}`)).items[0];
  const activation = await api('POST', '/v1/license-keys/activate', {
    key: key.key,
    organization_id: owner.organizationId,
    label: 'laptop',
  });
  const grant = (await api('GET', `/v1/benefit-grants/?customer_id=${customerId}`)).items[0];
  const payment = (await api('GET', `/v1/payments/?order_id=${order.id}`)).items[0];
  // The sandbox's rehearsed chargeback (docs/disputes.md): the dispute reads need one.
  const dispute = await api('POST', '/v1/sandbox/disputes/', { order_id: order.id });
  const customField = await api('POST', '/v1/custom-fields/', {
    type: 'select',
    slug: 'walk-size',
    name: 'Size',
    properties: { form_label: 'Size', options: [{ value: 's', label: 'Small' }] },
  });
  // A product that asks it: the walk reads AttachedCustomField through the product reads.
  await api('PATCH', `/v1/products/${oneTime}`, {
    attached_custom_fields: [{ custom_field_id: customField.id, required: false }],
  });
  // Usage (docs/usage-events.md): an event of the customer with Polar's typed metadata, and a meter counting it.
  await api('POST', '/v1/events/ingest', {
    events: [
      {
        name: 'walk.completion',
        customer_id: customerId,
        external_id: 'walk-event-1',
        metadata: {
          route: '/chat',
          _llm: { vendor: 'openai', model: 'gpt-4o', input_tokens: 3, output_tokens: 4, total_tokens: 7 },
          _cost: { amount: '0.25', currency: 'usd' },
        },
      },
    ],
  });
  const event = (await api('GET', '/v1/events/?name=walk.completion')).items[0];
  const meter = await api('POST', '/v1/meters/', {
    name: 'Walk tokens',
    filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'walk.completion' }] },
    aggregation: { func: 'sum', property: '_llm.total_tokens' },
  });
  const dashboard = await api('POST', '/v1/metrics/dashboards', { name: 'Walk', metrics: ['revenue', 'orders'] });
  // A balance the seller owes the customer (what a downgrade's larger credit leaves, docs/wallets.md):
  // the wallet reads need one. Written to the ledger directly, as the plan-change tests' set-up does.
  await stack.sandbox.environment.billing.orm.em.fork().execute(
    `insert into billing.customer_balance_entries (id, organization_id, customer_id, currency, amount, reason, created_at)
       values (gen_random_uuid(), ?, ?, 'usd', 700, 'proration_credit', now())`,
    [owner.organizationId, customerId],
  );
  const [wallet] = await stack.sandbox.environment.billing.orm.em
    .fork()
    .execute<{ id: string }[]>('select id from billing.customer_wallets where customer_id = ?', [customerId]);
  // A use of the meter once it exists, billed by the job the clock's advance runs: the customer's meter
  // (docs/usage-billing.md#customer-meters).
  await api('POST', '/v1/events/ingest', {
    events: [
      {
        name: 'walk.completion',
        customer_id: customerId,
        metadata: { _llm: { vendor: 'openai', model: 'gpt-4o', input_tokens: 2, output_tokens: 3, total_tokens: 5 } },
      },
    ],
  });
  await api('POST', '/v1/sandbox/clock/advance', { seconds: 1 });
  const customerMeter = (await api('GET', `/v1/customer-meters/?meter_id=${meter.id}`)).items[0];
  const session = await api('POST', '/v1/customer-sessions/', { customer_id: customerId });
  const emailUpdateToken = await pendingEmailUpdate(stack, session.token);
  // The walk customer then becomes a team (its e-mail change is asked first: a team's cannot be) with a second member: the member reads (by external ids too) and the
  // portal's team (team customers only) need one.
  await api('PATCH', `/v1/customers/${customerId}`, { type: 'team' });
  const member = await api('POST', `/v1/customers/${customerId}/members`, {
    email: 'walk-member@example.com',
    external_id: 'walk-member',
  });
  return {
    owner,
    customerSession: session.token,
    ids: {
      organization: owner.organizationId,
      slug: owner.slug,
      file: file.id,
      benefit: licenseKeys.id,
      downloadables: downloadables.id,
      product: oneTime,
      seatProduct: seats,
      seatSubscription: teamOrder.subscription_id,
      seatInvitation: invitationToken,
      customer: customerId,
      externalCustomer: 'walk-ext',
      member: member.id,
      externalMember: 'walk-member',
      order: order.id,
      subscription: subscription.id,
      refund: refund.id,
      discount: discount.id,
      checkoutLink: link.id,
      checkout: checkout.id,
      clientSecret: checkout.client_secret,
      webhookEndpoint: endpoint.id,
      licenseKey: key.id,
      licenseKeyValue: key.key,
      activation: activation.id,
      grant: grant.id,
      payment: payment.id,
      emailUpdateToken,
      dispute: dispute.id,
      customField: customField.id,
      event: event.id,
      meter: meter.id,
      metricDashboard: dashboard.id,
      wallet: wallet.id,
      customerMeter: customerMeter.id,
    },
  };
}

/** A pending portal e-mail change of the session's customer: its token, read from the outbox as from the inbox. */
async function pendingEmailUpdate(stack: TestStack, customerSession: string): Promise<string> {
  const to = `walk-new-${Date.now()}@example.com`;
  const res = await call(stack.sandbox.baseUrl, 'POST', '/v1/customer-portal/customers/me/email-update/request', {
    token: customerSession,
    body: { email: to },
  });
  if (res.status !== 202) throw new Error(`email update: ${res.status} ${res.text}`);
  const [mail] = await stack.sandbox.environment.billing.orm.em
    .fork()
    .execute<{ text_body: string }[]>('select text_body from billing.outgoing_emails where to_address = ?', [to]);
  const token = /verify-email\?token=([\w-]+)/.exec(mail?.text_body ?? '')?.[1];
  if (!token) throw new Error('email update: no link in the outbox');
  return token;
}

const fixed = (amount: number) => ({ amount_type: 'fixed', price_amount: amount, price_currency: 'usd' });
