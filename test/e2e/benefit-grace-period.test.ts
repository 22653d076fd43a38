import { ManualClock } from '../../kit/clock.js';
import { benefitHelpers } from '../support/benefits.js';
import { ok, polarClient } from '../support/sdk.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The organization's benefit revocation grace period (`subscription_settings.benefit_revocation_grace_period`,
 * 3 days) across dunning: a trial whose saved card fails every charge goes past due at its end; the
 * customer keeps the benefits for 3 days, loses them then (the license key refused); the customer saves
 * a Visa as the default in the portal and the next dunning retry pays: the subscription is active again,
 * the benefits granted again, and the same license key works again.
 */
jest.setTimeout(120_000);
const START = new Date('2028-09-01T12:00:00.000Z');
const wall = new ManualClock(START);
let stack: TestStack;
let owner: Tenant;
let base: string;
const { api, settle, benefit, product, state, outbox } = benefitHelpers(() => ({ stack, owner, base }));

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  owner = await createTenant(stack.sandbox);
  base = stack.sandbox.baseUrl;
}, 120_000);

const keys = (verb: string, body: unknown) => call(base, 'POST', `/v1/customer-portal/license-keys/${verb}`, { body });

describe('benefits of a past-due subscription under a 3-day grace period', () => {
  it('kept for 3 days, revoked after, granted again (same key) when a new default card pays the retry', async () => {
    const sdk = polarClient(stack.sandbox, owner.oat);
    const org = await ok(sdk.organizations.get({ id: owner.organizationId }));
    const updated = await ok(
      sdk.organizations.update({
        id: owner.organizationId,
        organizationUpdate: {
          subscriptionSettings: { ...org.subscriptionSettings, benefitRevocationGracePeriod: 3 },
        },
      }),
    );
    expect(updated.subscriptionSettings.benefitRevocationGracePeriod).toBe(3);

    const licence = await benefit({
      type: 'license_keys',
      description: 'Plugin licence',
      properties: { prefix: 'GRACE', activations: { limit: 1, enable_customer_admin: false } },
    });
    const note = await benefit({ type: 'custom', description: 'Community access', properties: { note: 'Welcome' } });
    const productId = await product({
      name: 'Studio',
      prices: [{ amount_type: 'fixed', price_amount: 1900 }],
      trial_interval: 'day',
      trial_interval_count: 7,
    });
    expect((await api('POST', `/v1/products/${productId}/benefits`, { benefits: [licence.id, note.id] })).status).toBe(
      200,
    );

    const checkout = await api('POST', '/v1/checkouts/', {
      products: [productId],
      customer_email: 'grace@example.com',
    });
    const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: 'pm_card_chargeCustomerFail' },
    });
    expect(confirmed.status).toBe(200);
    const customerId = confirmed.body.customer_id as string;
    const customerToken = confirmed.body.customer_session_token as string;
    const [sub] = (await api('GET', `/v1/subscriptions/?customer_id=${customerId}`)).body.items;
    expect(sub).toMatchObject({ status: 'trialing', trial_end: '2028-09-08T12:00:00.002Z' });

    const grantedIds = async () => {
      const res = await state(customerId);
      return (res.body.granted_benefits as any[]).map(g => g.benefit_id).sort();
    };
    const trialing = await settle(
      () => state(customerId),
      res => res.body.granted_benefits?.length === 2,
    );
    const licenceGrant = trialing.body.granted_benefits.find((g: any) => g.benefit_id === licence.id);
    const key = (await api('GET', `/v1/license-keys/${licenceGrant.properties.license_key_id}`)).body;
    const ids = { key: key.key, organization_id: owner.organizationId };
    expect((await keys('activate', { ...ids, label: 'studio-mac' })).status).toBe(200);

    const advance = async (to: string) => {
      const res = await api('POST', '/v1/sandbox/clock/advance', { to });
      expect([res.status, res.body]).toEqual([200, { organization_id: owner.organizationId, now: to }]);
      await stack.sandbox.environment.billing.jobs.drain();
    };
    const subscription = async () => (await api('GET', `/v1/subscriptions/${sub.id}`)).body;

    // The trial ends: the first charge is declined, the subscription is past due; benefits stay.
    await advance('2028-09-08T12:00:00.002Z');
    expect(await subscription()).toMatchObject({ status: 'past_due', past_due_at: '2028-09-08T12:00:00.002Z' });
    expect(await grantedIds()).toEqual([licence.id, note.id].sort());

    // Two days on, the first retry fails too; still inside the grace period.
    await advance('2028-09-11T12:00:00.000Z');
    expect((await subscription()).status).toBe('past_due');
    expect(await grantedIds()).toEqual([licence.id, note.id].sort());
    expect((await keys('validate', ids)).status).toBe(200);

    // Three days after going past due, the benefits are revoked; the subscription stays past due.
    await advance('2028-09-11T12:00:00.002Z');
    const revoked = await settle(
      () => state(customerId),
      res => res.body.granted_benefits?.length === 0,
    );
    expect(revoked.body.granted_benefits).toEqual([]);
    expect((await subscription()).status).toBe('past_due');
    const refused = await keys('validate', ids);
    expect([refused.status, refused.body]).toEqual([
      404,
      { error: 'ResourceNotFound', detail: 'License key is no longer active.' },
    ]);
    const revokedEvents = (await outbox(['benefit_grant.revoked'])).filter(e => e.payload.customer_id === customerId);
    expect(revokedEvents.map(e => e.payload.benefit_id).sort()).toEqual([licence.id, note.id].sort());

    // The customer saves a Visa as the default card in the portal (through the SDK).
    const portal = polarClient(stack.sandbox);
    const added = await ok(
      portal.customerPortal.customers.addPaymentMethod(
        { customerSession: customerToken },
        { confirmationTokenId: 'pm_card_visa', setDefault: true, returnUrl: 'https://shop.example/back' },
      ),
    );
    expect(added).toMatchObject({ status: 'succeeded', paymentMethod: { type: 'card' } });

    // The next retry (5 days after the first) charges the Visa: active, benefits back, the same key.
    await advance('2028-09-15T12:00:00.002Z');
    expect(await subscription()).toMatchObject({
      status: 'active',
      past_due_at: null,
      current_period_start: '2028-09-08T12:00:00.002Z',
      current_period_end: '2028-10-08T12:00:00.002Z',
    });
    const orders = await api('GET', `/v1/orders/?subscription_id=${sub.id}&sorting=created_at&limit=100`);
    expect(orders.body.items.map((o: any) => [o.billing_reason, o.status, o.total_amount])).toEqual([
      ['subscription_create', 'paid', 0],
      ['subscription_cycle', 'paid', 1900],
    ]);
    const regranted = await settle(
      () => state(customerId),
      res => res.body.granted_benefits?.length === 2,
    );
    const again = regranted.body.granted_benefits.find((g: any) => g.benefit_id === licence.id);
    expect(again.properties).toEqual(licenceGrant.properties);
    // The SDK reads the same state (its models parse the grants' properties).
    const viaSdk = await ok(sdk.customers.getState({ id: customerId }));
    expect(viaSdk.activeSubscriptions.map(s => [s.id, s.status])).toEqual([[sub.id, 'active']]);
    expect(viaSdk.grantedBenefits.find(g => g.benefitId === licence.id)?.properties).toEqual({
      licenseKeyId: key.id,
      displayKey: key.display_key,
    });
    const back = await keys('validate', ids);
    expect([back.status, back.body.id, back.body.status]).toEqual([200, key.id, 'granted']);
    // Its activation survived the revocation: the only slot is still taken.
    const second = await keys('activate', { ...ids, label: 'studio-pc' });
    expect([second.status, second.body.detail]).toEqual([403, 'License key activation limit already reached']);
    const created = (await outbox(['benefit_grant.created'])).filter(e => e.payload.customer_id === customerId);
    expect(created.map(e => e.payload.benefit_id).sort()).toEqual([licence.id, note.id, licence.id, note.id].sort());
  });
});
