import { ManualClock } from '../../kit/clock.js';
import { benefitHelpers } from '../support/benefits.js';
import { uploadFile } from '../support/portal-benefits.js';
import { createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Benefits over plain HTTP in the sandbox (test processor): CRUD and its 422s, a product's benefits,
 * grants following a sale, a property change going through live grants, a cancel at period end and a
 * revoke (driven by the outbox trigger's `benefits.reconcile` jobs), the customer state after each
 * step, and the outbox rows. Timing and the user's benefits: benefits-timing.test.ts.
 */
const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
let stack: TestStack;
let owner: Tenant;
let base: string;
const { api, settle, benefit, product, sell, state, outbox } = benefitHelpers(() => ({ stack, owner, base }));

beforeAll(async () => {
  stack = await sharedTestStack(clock);
  owner = await createTenant(stack.sandbox);
  base = stack.sandbox.baseUrl;
}, 120_000);

describe('benefits CRUD', () => {
  it('creates, reads, lists, updates each type with its properties and metadata', async () => {
    const note = await benefit({
      type: 'custom',
      description: 'Priority support',
      properties: { note: 'Write to us' },
    });
    expect(note).toMatchObject({
      type: 'custom',
      description: 'Priority support',
      selectable: true,
      deletable: true,
      is_deleted: false,
      organization_id: owner.organizationId,
      metadata: {},
      visibility: 'public',
      properties: { note: 'Write to us' },
    });
    const keys = await benefit({
      type: 'license_keys',
      description: 'License key',
      properties: { prefix: 'ACME', activations: { limit: 3, enable_customer_admin: true }, limit_usage: 10 },
      metadata: { tier: 'pro' },
    });
    expect(keys.properties).toEqual({
      prefix: 'ACME',
      expires: null,
      activations: { limit: 3, enable_customer_admin: true },
      limit_usage: 10,
    });
    const got = await api('GET', `/v1/benefits/${keys.id}`);
    expect(got.body).toEqual(keys);
    const list = await api('GET', '/v1/benefits/?type=license_keys');
    expect(list.body.items.map((b: { id: string }) => b.id)).toContain(keys.id);
    expect(list.body.items.every((b: { type: string }) => b.type === 'license_keys')).toBe(true);
    const found = await api('GET', '/v1/benefits/?query=priority');
    expect(found.body.items.map((b: { id: string }) => b.id)).toEqual([note.id]);

    const updated = await api('PATCH', `/v1/benefits/${note.id}`, {
      type: 'custom',
      description: 'Premium support',
      metadata: { level: 2 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ description: 'Premium support', metadata: { level: 2 } });
    expect(updated.body.modified_at).not.toBeNull();
    const events = await outbox(['benefit.created', 'benefit.updated']);
    // The test's clock stands still: both rows carry one instant, so compare them as a set.
    expect(
      events
        .filter(e => e.payload.id === note.id)
        .map(e => e.type)
        .sort(),
    ).toEqual(['benefit.created', 'benefit.updated']);
    expect(events.find(e => e.type === 'benefit.updated' && e.payload.id === note.id)?.payload).toEqual(updated.body);
  });

  it('answers 422 with the field for bad bodies and changes nothing', async () => {
    const before = (await api('GET', '/v1/benefits/?limit=100')).body.pagination.total_count;
    const short = await api('POST', '/v1/benefits/', { type: 'custom', description: 'ab', properties: {} });
    expect(short.status).toBe(422);
    expect(short.body.detail[0].loc).toEqual(['body', 'description']);
    const unknown = await api('POST', '/v1/benefits/', { type: 'ads', description: 'Ads', properties: {} });
    expect(unknown.status).toBe(422);
    const limit = await api('POST', '/v1/benefits/', {
      type: 'license_keys',
      description: 'Keys',
      properties: { activations: { limit: 0, enable_customer_admin: false } },
    });
    expect(limit.status).toBe(422);
    expect(JSON.stringify(limit.body.detail[0].loc)).toContain('limit');
    const files = await api('POST', '/v1/benefits/', {
      type: 'downloadables',
      description: 'Files',
      properties: { files: [] },
    });
    expect(files.status).toBe(422);
    const typeChange = await api('POST', '/v1/benefits/', { type: 'custom', description: 'Note', properties: {} });
    const wrongType = await api('PATCH', `/v1/benefits/${typeChange.body.id}`, {
      type: 'feature_flag',
      description: 'Flag',
    });
    expect(wrongType.status).toBe(422);
    expect((await api('GET', '/v1/benefits/?limit=100')).body.pagination.total_count).toBe(before + 1);
    expect((await api('GET', '/v1/benefits/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe("downloadables: only the organization's uploaded files", () => {
  it("refuses another organization's file, an unknown id, an unfinished upload and a deleted file at `properties.files[i]`, on create and update, changing nothing", async () => {
    const stranger = await createTenant(stack.sandbox);
    const own = await uploadFile(stack.sandbox, owner, 'manual.txt', Buffer.from('the manual\n'));
    const theirs = await uploadFile(stack.sandbox, stranger, 'secret.txt', Buffer.from('not yours\n'));
    const deleted = await uploadFile(stack.sandbox, owner, 'old.txt', Buffer.from('gone\n'));
    expect((await api('DELETE', `/v1/files/${deleted.id}`)).status).toBe(204);
    const unfinished = await api('POST', '/v1/files/', {
      name: 'half.txt',
      mime_type: 'text/plain',
      size: 4,
      upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 4 }] },
      service: 'downloadable',
    });
    expect(unfinished.status).toBe(201);
    const unknown = '7f1d1c8e-3c4b-4a5e-9f4e-2a7c9d1b6e01';
    const before = (await api('GET', '/v1/benefits/?limit=100')).body.pagination.total_count;
    const expected = [
      { type: 'value_error', loc: ['body', 'properties', 'files', 1], msg: 'File does not exist.', input: theirs.id },
      { type: 'value_error', loc: ['body', 'properties', 'files', 2], msg: 'File does not exist.', input: unknown },
      {
        type: 'value_error',
        loc: ['body', 'properties', 'files', 3],
        msg: 'File upload is not completed.',
        input: unfinished.body.id,
      },
      { type: 'value_error', loc: ['body', 'properties', 'files', 4], msg: 'File does not exist.', input: deleted.id },
    ];
    const files = [own.id, theirs.id, unknown, unfinished.body.id, deleted.id];
    const created = await api('POST', '/v1/benefits/', {
      type: 'downloadables',
      description: 'Manuals',
      properties: { files },
    });
    expect([created.status, created.body]).toEqual([422, { error: 'PolarRequestValidationError', detail: expected }]);
    expect((await api('GET', '/v1/benefits/?limit=100')).body.pagination.total_count).toBe(before);

    const good = await benefit({ type: 'downloadables', description: 'Manuals', properties: { files: [own.id] } });
    const updated = await api('PATCH', `/v1/benefits/${good.id}`, { type: 'downloadables', properties: { files } });
    expect([updated.status, updated.body]).toEqual([422, { error: 'PolarRequestValidationError', detail: expected }]);
    expect((await api('GET', `/v1/benefits/${good.id}`)).body).toEqual(good);
  });
});

describe('grants follow subscriptions', () => {
  let productId: string;
  let note: { id: string };
  let flag: { id: string };
  let discord: { id: string };
  let subscriptionId: string;
  let customerId: string;

  it('attaches benefits to a product in order; an unknown benefit is 422 at its index', async () => {
    note = await benefit({ type: 'custom', description: 'Welcome note', properties: { note: 'Hello' } });
    flag = await benefit({
      type: 'feature_flag',
      description: 'Beta access',
      properties: {},
      metadata: { flag: 'beta' },
    });
    discord = await benefit({
      type: 'discord',
      description: 'Discord role',
      properties: { guild_token: 'token', role_id: '123', kick_member: false },
    });
    productId = await product({ name: 'Pro' });
    const bad = await api('POST', `/v1/products/${productId}/benefits`, {
      benefits: [note.id, '00000000-0000-4000-8000-000000000000'],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'benefits', 1]);
    const set = await api('POST', `/v1/products/${productId}/benefits`, { benefits: [flag.id, note.id, discord.id] });
    expect(set.status).toBe(200);
    expect(set.body.benefits.map((b: { id: string }) => b.id)).toEqual([flag.id, note.id, discord.id]);
    expect((await api('GET', `/v1/products/${productId}`)).body.benefits).toEqual(set.body.benefits);
  });

  it('grants on checkout; an unconfigured integration stores its error on the grant', async () => {
    const order = await sell(productId, 'buyer@example.com');
    subscriptionId = order.subscription_id;
    customerId = order.customer_id;
    const grants = await settle(
      () => api('GET', `/v1/benefit-grants/?customer_id=${customerId}&limit=100`),
      res => res.body.items?.length === 3,
    );
    const byBenefit = new Map(grants.body.items.map((g: any) => [g.benefit_id, g]));
    expect(byBenefit.get(note.id)).toMatchObject({
      is_granted: true,
      is_revoked: false,
      subscription_id: subscriptionId,
      order_id: null,
      customer_id: customerId,
      error: null,
      customer: { id: customerId, email: 'buyer@example.com' },
      benefit: { id: note.id, type: 'custom' },
    });
    expect(byBenefit.get(discord.id)).toMatchObject({
      is_granted: false,
      error: { type: 'IntegrationNotConfigured' },
    });
    expect((byBenefit.get(discord.id) as any).error.message).toContain('discord integration is not configured');

    const current = await state(customerId);
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ id: customerId, email: 'buyer@example.com', active_meters: [] });
    expect(current.body.active_subscriptions).toHaveLength(1);
    expect(current.body.active_subscriptions[0]).toMatchObject({ id: subscriptionId, status: 'active', amount: 1500 });
    expect(current.body.granted_benefits.map((g: any) => g.benefit_id).sort()).toEqual([flag.id, note.id].sort());
    expect(current.body.granted_benefits.find((g: any) => g.benefit_id === flag.id)).toMatchObject({
      benefit_type: 'feature_flag',
      benefit_metadata: { flag: 'beta' },
    });
    const events = await outbox(['benefit_grant.created', 'customer.state_changed']);
    const created = events.filter(e => e.type === 'benefit_grant.created' && e.payload.customer_id === customerId);
    expect(created.map(e => e.payload.benefit_id).sort()).toEqual([flag.id, note.id].sort());
    expect(events.some(e => e.type === 'customer.state_changed' && e.payload.id === customerId)).toBe(true);

    const ofBenefit = await api('GET', `/v1/benefits/${note.id}/grants?is_granted=true`);
    expect(ofBenefit.body.items.map((g: any) => g.customer_id)).toEqual([customerId]);

    // Changing the benefit's properties goes through its live grants: benefit_grant.updated.
    const changed = await api('PATCH', `/v1/benefits/${note.id}`, { type: 'custom', properties: { note: 'Hi again' } });
    expect(changed.body.properties).toEqual({ note: 'Hi again' });
    const updates = await outbox(['benefit_grant.updated']);
    expect(updates.filter(e => e.payload.benefit_id === note.id).map(e => e.payload)).toEqual([
      expect.objectContaining({
        customer_id: customerId,
        previous_properties: {},
        benefit: expect.objectContaining({ properties: { note: 'Hi again' } }),
      }),
    ]);
  });

  it('keeps the benefits through a cancel at period end, and revokes them with the subscription', async () => {
    const cancel = await api('PATCH', `/v1/subscriptions/${subscriptionId}`, { cancel_at_period_end: true });
    expect(cancel.status).toBe(200);
    await stack.sandbox.environment.billing.jobs.drain();
    const kept = await state(customerId);
    expect(kept.body.active_subscriptions[0]).toMatchObject({ cancel_at_period_end: true });
    expect(kept.body.granted_benefits).toHaveLength(2);

    expect((await api('PATCH', `/v1/subscriptions/${subscriptionId}`, { cancel_at_period_end: false })).status).toBe(
      200,
    );
    expect((await api('DELETE', `/v1/subscriptions/${subscriptionId}`)).status).toBe(200);
    const revoked = await settle(
      () => state(customerId),
      res => res.body.granted_benefits?.length === 0,
    );
    expect(revoked.body.active_subscriptions).toEqual([]);
    expect(revoked.body.granted_benefits).toEqual([]);
    const grants = await api('GET', `/v1/benefit-grants/?customer_id=${customerId}&is_granted=false&limit=100`);
    expect(grants.body.items).toHaveLength(3);
    // Every grant closes with the subscription (Polar revokes a failed grant too), so the portal no
    // longer offers the Discord one.
    expect(
      grants.body.items
        .filter((g: any) => g.is_revoked)
        .map((g: any) => g.benefit_id)
        .sort(),
    ).toEqual([flag.id, note.id, discord.id].sort());
    // The Discord grant never reached Discord: there is nothing to revoke, and no event says so.
    const events = await outbox(['benefit_grant.revoked']);
    expect(
      events
        .filter(e => e.payload.customer_id === customerId)
        .map(e => e.payload.benefit_id)
        .sort(),
    ).toEqual([flag.id, note.id].sort());
  });
});
