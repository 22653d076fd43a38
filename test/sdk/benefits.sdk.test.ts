// Benefits, grants and customer state through the official Speakeasy SDK `@polar-sh/sdk` 0.48.1, which
// zod-validates every response (Benefit per type, BenefitGrant with its customer and benefit,
// CustomerState). A free subscription created through the API is granted its product's benefits by
// the `benefits.reconcile` job, and revoking it takes them away.
import type { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { WebhookBenefitGrantCreatedPayload$inboundSchema } from '@polar-sh/sdk/models/components/webhookbenefitgrantcreatedpayload.js';
import { WebhookBenefitGrantRevokedPayload$inboundSchema } from '@polar-sh/sdk/models/components/webhookbenefitgrantrevokedpayload.js';
import { WebhookCustomerStateChangedPayload$inboundSchema } from '@polar-sh/sdk/models/components/webhookcustomerstatechangedpayload.js';
import { settleJobs } from '../support/sql-statements.js';
import { failure, ok, startSdkStack } from '../support/sdk.js';
import { call, type Tenant, type TestStack } from '../support/stack.js';

let stack: TestStack;
let owner: Tenant;
let asOrganization: Polar;

beforeAll(async () => {
  ({ stack, owner, asOrganization } = await startSdkStack());
}, 120_000);

const settle = () => settleJobs(stack.production.environment.billing);

describe('benefits through the SDK', () => {
  it('creates, lists, gets, updates and deletes benefits of several types', async () => {
    const custom = await ok(
      asOrganization.benefits.create({
        type: 'custom',
        description: 'Members lounge',
        properties: { note: 'See you there' },
        metadata: { area: 'lounge' },
      }),
    );
    expect(custom).toMatchObject({
      type: 'custom',
      properties: { note: 'See you there' },
      metadata: { area: 'lounge' },
    });
    const keys = await ok(
      asOrganization.benefits.create({
        type: 'license_keys',
        description: 'App license',
        properties: {
          prefix: 'APP',
          expires: { ttl: 1, timeframe: 'year' },
          activations: { limit: 2, enableCustomerAdmin: true },
        },
      }),
    );
    expect(keys.type).toBe('license_keys');
    const flag = await ok(
      asOrganization.benefits.create({ type: 'feature_flag', description: 'Beta features', properties: {} }),
    );
    const discord = await ok(
      asOrganization.benefits.create({
        type: 'discord',
        description: 'Discord role',
        properties: { guildToken: 'token', roleId: '42', kickMember: true },
      }),
    );
    expect(discord).toMatchObject({ type: 'discord', properties: { roleId: '42', kickMember: true } });
    expect(flag.type).toBe('feature_flag');

    const page = await ok(asOrganization.benefits.list({ typeFilter: 'license_keys' }));
    expect(page.result.items.map(b => b.id)).toEqual([keys.id]);
    expect(await ok(asOrganization.benefits.get({ id: keys.id }))).toMatchObject({
      id: keys.id,
      description: 'App license',
    });
    const updated = await ok(
      asOrganization.benefits.update({ id: custom.id, requestBody: { type: 'custom', description: 'VIP lounge' } }),
    );
    expect(updated.description).toBe('VIP lounge');

    await failure(
      asOrganization.benefits.create({ type: 'custom', description: 'x', properties: {} }),
      HTTPValidationError,
    );
    await ok(asOrganization.benefits.delete({ id: flag.id }));
    await failure(asOrganization.benefits.get({ id: flag.id }), ResourceNotFound);
  });

  it('grants a free subscription its product benefits, shows them in the customer state, and revokes them', async () => {
    const perk = await ok(
      asOrganization.benefits.create({
        type: 'custom',
        description: 'Free perk',
        properties: {},
        metadata: { perk: true },
      }),
    );
    const product = await ok(
      asOrganization.products.create({
        name: 'Free plan',
        recurringInterval: 'month',
        prices: [{ amountType: 'free' }],
      } as never),
    );
    const withBenefits = await ok(
      asOrganization.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [perk.id] } }),
    );
    expect(withBenefits.benefits.map(b => b.id)).toEqual([perk.id]);
    const customer = await ok(asOrganization.customers.create({ email: 'free@example.com', externalId: 'free-1' }));
    const created = await call(stack.production.baseUrl, 'POST', '/v1/subscriptions/', {
      token: owner.oat,
      body: { product_id: product.id, customer_id: customer.id },
    });
    expect(created.status).toBe(201);
    await settle();

    const state = await ok(asOrganization.customers.getState({ id: customer.id }));
    expect(state.activeSubscriptions.map(s => s.id)).toEqual([created.body.id]);
    expect(state.grantedBenefits).toHaveLength(1);
    expect(state.grantedBenefits[0]).toMatchObject({
      benefitId: perk.id,
      benefitType: 'custom',
      benefitMetadata: { perk: true },
    });
    const external = await ok(asOrganization.customers.getStateExternal({ externalId: 'free-1' }));
    expect(external.grantedBenefits.map(g => g.benefitId)).toEqual([perk.id]);

    const grants = await ok(asOrganization.benefitGrants.list({ customerId: customer.id }));
    expect(grants.result.items).toHaveLength(1);
    expect(grants.result.items[0]).toMatchObject({
      isGranted: true,
      subscriptionId: created.body.id,
      benefitId: perk.id,
    });
    const ofBenefit = await ok(asOrganization.benefits.grants({ id: perk.id }));
    expect(ofBenefit.result.items.map(g => g.customerId)).toEqual([customer.id]);

    await ok(asOrganization.subscriptions.revoke({ id: created.body.id }));
    await settle();
    const after = await ok(asOrganization.customers.getState({ id: customer.id }));
    expect(after.activeSubscriptions).toEqual([]);
    expect(after.grantedBenefits).toEqual([]);
    const revoked = await ok(asOrganization.benefitGrants.list({ customerId: customer.id, isGranted: false }));
    expect(revoked.result.items[0]).toMatchObject({ isGranted: false, isRevoked: true });

    // The webhook bodies these events become are what the SDK's webhook models accept.
    const rows = await stack.production.environment.billing.orm.em
      .fork()
      .execute<{ type: string; payload: any; created_at: Date }[]>(
        `select type, payload, created_at from billing.events where type in ('benefit_grant.created', 'benefit_grant.revoked', 'customer.state_changed') order by created_at, id`,
      );
    const schemas: Record<string, { safeParse(v: unknown): { success: boolean; error?: unknown } }> = {
      'benefit_grant.created': WebhookBenefitGrantCreatedPayload$inboundSchema as never,
      'benefit_grant.revoked': WebhookBenefitGrantRevokedPayload$inboundSchema as never,
      'customer.state_changed': WebhookCustomerStateChangedPayload$inboundSchema as never,
    };
    const mine = rows.filter(r => (r.payload.customer_id ?? r.payload.id) === customer.id);
    expect(mine.map(r => r.type).sort()).toEqual(
      ['benefit_grant.created', 'benefit_grant.revoked', 'customer.state_changed', 'customer.state_changed'].sort(),
    );
    for (const row of mine) {
      const parsed = schemas[row.type].safeParse({
        type: row.type,
        timestamp: new Date(row.created_at).toISOString(),
        data: row.payload,
      });
      if (!parsed.success) throw new Error(`${row.type}: ${JSON.stringify(parsed.error)}`);
    }
  });
});
