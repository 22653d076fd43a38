import { createHash, randomBytes } from 'node:crypto';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import { ManualClock } from '../../kit/clock.js';
import { benefitHelpers } from '../support/benefits.js';
import { ok, polarClient } from '../support/sdk.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Issue 12, proved end to end: a monthly plan carrying a license key (2 activations), a downloadable
 * file and a custom note. A sale with a test card grants all three; the key validates and activates
 * twice, and is refused a third time; the customer downloads the file's bytes through the portal's downloadables (`GET
 * /v1/customer-portal/downloadables/`); a cancel
 * at period end keeps everything until the period ends on the organization's clock, then the
 * subscription is canceled, every grant revoked, the key refused as no longer active and the customer
 * state empty. The merchant's webhook endpoint receives the grants' `benefit_grant.created` and
 * `benefit_grant.revoked` (verified and parsed by the SDK), as the outbox holds them.
 */
jest.setTimeout(120_000);
const START = new Date('2028-06-15T10:00:00.000Z');
const wall = new ManualClock(START);
let stack: TestStack;
let owner: Tenant;
let base: string;
let receiver: WebhookReceiver;
const { api, settle, benefit, product, sell, state, outbox } = benefitHelpers(() => ({ stack, owner, base }));

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  owner = await createTenant(stack.sandbox);
  base = stack.sandbox.baseUrl;
  receiver = await new WebhookReceiver().start();
}, 120_000);
afterAll(async () => {
  await receiver?.close();
});

/** Links carry the environment's public URL; the test server listens elsewhere. */
const local = (url: string) => {
  const u = new URL(url);
  return `${base}${u.pathname}${u.search}`;
};
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

/** Polar's upload flow in one part: create, PUT the bytes to the signed link, complete. */
async function upload(name: string, bytes: Buffer): Promise<string> {
  const created = await api('POST', '/v1/files/', {
    name,
    mime_type: 'application/zip',
    size: bytes.length,
    checksum_sha256_base64: sha256(bytes),
    upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: bytes.length }] },
    service: 'downloadable',
  });
  expect(created.status).toBe(201);
  const [part] = created.body.upload.parts;
  const put = await fetch(local(part.url), { method: 'PUT', body: bytes });
  expect(put.status).toBe(200);
  const done = await api('POST', `/v1/files/${created.body.id}/uploaded`, {
    id: created.body.upload.id,
    path: created.body.upload.path,
    parts: [{ number: 1, checksum_etag: put.headers.get('etag'), checksum_sha256_base64: null }],
  });
  expect([done.status, done.body.is_uploaded]).toEqual([200, true]);
  return created.body.id;
}

const keys = (verb: string, body: unknown) => call(base, 'POST', `/v1/customer-portal/license-keys/${verb}`, { body });

describe('a subscription’s benefits from sale to the end of a canceled period', () => {
  it('grants, uses, keeps through a cancel at period end, and revokes at the period end', async () => {
    const endpoint = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/grants'),
      format: 'raw',
      events: ['benefit_grant.created', 'benefit_grant.revoked'],
    });
    expect(endpoint.status).toBe(201);
    const stateEndpoint = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/state'),
      format: 'raw',
      events: ['customer.state_changed'],
    });
    expect(stateEndpoint.status).toBe(201);
    const bytes = randomBytes(40_000);
    const fileId = await upload('starter-kit.zip', bytes);
    const licence = await benefit({
      type: 'license_keys',
      description: 'Desktop app licence',
      properties: { prefix: 'ACME', activations: { limit: 2, enable_customer_admin: true } },
      metadata: { seats: 2 },
    });
    const files = await benefit({
      type: 'downloadables',
      description: 'Starter kit',
      properties: { files: [fileId] },
    });
    const note = await benefit({
      type: 'custom',
      description: 'Onboarding call',
      properties: { note: 'Book at https://cal.example/acme' },
      metadata: { tier: 'pro' },
    });
    const productId = await product({ name: 'Pro monthly', prices: [{ amount_type: 'fixed', price_amount: 2900 }] });
    const attached = await api('POST', `/v1/products/${productId}/benefits`, {
      benefits: [licence.id, files.id, note.id],
    });
    expect(attached.status).toBe(200);

    const order = await sell(productId, 'lifecycle@example.com');
    expect(order).toMatchObject({ status: 'paid', total_amount: 2900, billing_reason: 'subscription_create' });
    const customerId = order.customer_id as string;
    const subscriptionId = order.subscription_id as string;

    // Three grants, each granted; the customer state lists them with their benefit's metadata.
    const granted = await settle(
      () => state(customerId),
      res => res.body.granted_benefits?.length === 3,
    );
    const byBenefit = new Map<string, any>(granted.body.granted_benefits.map((g: any) => [g.benefit_id, g]));
    expect(byBenefit.get(licence.id)).toMatchObject({ benefit_type: 'license_keys', benefit_metadata: { seats: 2 } });
    expect(byBenefit.get(files.id)).toMatchObject({
      benefit_type: 'downloadables',
      benefit_metadata: {},
      properties: { files: [fileId] },
    });
    expect(byBenefit.get(note.id)).toMatchObject({ benefit_type: 'custom', benefit_metadata: { tier: 'pro' } });
    expect(granted.body.active_subscriptions).toMatchObject([{ id: subscriptionId, status: 'active', amount: 2900 }]);

    // The key named in the grant's properties: validate, activate twice, refused the third time.
    const { license_key_id: keyId, display_key: displayKey } = byBenefit.get(licence.id).properties;
    expect(byBenefit.get(licence.id).properties).toEqual({ license_key_id: keyId, display_key: displayKey });
    const key = await api('GET', `/v1/license-keys/${keyId}`);
    expect(key.status).toBe(200);
    expect(key.body).toMatchObject({
      customer_id: customerId,
      benefit_id: licence.id,
      status: 'granted',
      limit_activations: 2,
      display_key: displayKey,
      expires_at: null,
    });
    expect(key.body.key).toMatch(/^ACME-[0-9A-F-]{36}$/);
    const ids = { key: key.body.key, organization_id: owner.organizationId };
    const valid = await keys('validate', ids);
    expect([valid.status, valid.body.status, valid.body.validations]).toEqual([200, 'granted', 1]);
    expect((await keys('activate', { ...ids, label: 'laptop' })).status).toBe(200);
    expect((await keys('activate', { ...ids, label: 'desktop' })).status).toBe(200);
    const third = await keys('activate', { ...ids, label: 'tablet' });
    expect([third.status, third.body]).toEqual([
      403,
      { error: 'NotPermitted', detail: 'License key activation limit already reached' },
    ]);

    // The customer's portal lists the file with a signed link (the SDK parses Polar's DownloadableRead).
    const session = await api('POST', '/v1/customer-sessions/', { customer_id: customerId });
    expect(session.status).toBe(201);
    const security = { customerSession: session.body.token as string };
    const portal = polarClient(stack.sandbox);
    const listed = await ok(portal.customerPortal.downloadables.list(security, {}));
    expect(listed.result.pagination).toEqual({ totalCount: 1, maxPage: 1 });
    const [downloadable] = listed.result.items;
    expect(downloadable).toMatchObject({
      benefitId: files.id,
      file: {
        id: fileId,
        name: 'starter-kit.zip',
        mimeType: 'application/zip',
        size: 40_000,
        isUploaded: true,
        checksumSha256Base64: sha256(bytes),
        download: { headers: {} },
      },
    });
    expect(downloadable.file.download.expiresAt.getTime()).toBeGreaterThan(wall.now().getTime() + 3000_000);
    const download = await fetch(local(downloadable.file.download.url));
    expect([download.status, download.headers.get('content-type')]).toEqual([200, 'application/zip']);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    // Stable across reads; filtered by benefit.
    const again = await call(base, 'GET', `/v1/customer-portal/downloadables/?benefit_id=${files.id}`, {
      token: security.customerSession,
    });
    expect(downloadable.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(again.body.items.map((d: any) => [d.id, d.benefit_id, d.file.id])).toEqual([
      [downloadable.id, files.id, fileId],
    ]);
    const none = await call(base, 'GET', `/v1/customer-portal/downloadables/?benefit_id=${note.id}`, {
      token: security.customerSession,
    });
    expect(none.body).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
    // Another customer sees none of it; without a session, 401; a merchant's token is no customer's either (401).
    const stranger = await api('POST', '/v1/customers/', { email: 'stranger@example.com' });
    const strangerSession = await api('POST', '/v1/customer-sessions/', { customer_id: stranger.body.id });
    const theirs = await call(base, 'GET', '/v1/customer-portal/downloadables/', { token: strangerSession.body.token });
    expect([theirs.status, theirs.body.items]).toEqual([200, []]);
    expect((await call(base, 'GET', '/v1/customer-portal/downloadables/')).status).toBe(401);
    expect((await api('GET', '/v1/customer-portal/downloadables/')).status).toBe(401);

    const created = await outbox(['benefit_grant.created']);
    expect(
      created
        .filter(e => e.payload.customer_id === customerId)
        .map(e => e.payload.benefit_id)
        .sort(),
    ).toEqual([licence.id, files.id, note.id].sort());

    // Cancel at the period end: nothing is taken away before it.
    const cancel = await api('PATCH', `/v1/subscriptions/${subscriptionId}`, { cancel_at_period_end: true });
    expect([cancel.status, cancel.body.cancel_at_period_end]).toEqual([200, true]);
    const periodEnd = cancel.body.current_period_end as string;
    expect(periodEnd).toBe('2028-07-15T10:00:00.002Z');
    const advance = async (to: string) => {
      const res = await api('POST', '/v1/sandbox/clock/advance', { to });
      expect([res.status, res.body]).toEqual([200, { organization_id: owner.organizationId, now: to }]);
      await stack.sandbox.environment.billing.jobs.drain();
    };
    await advance('2028-07-15T10:00:00.000Z');
    const kept = await state(customerId);
    expect(kept.body.active_subscriptions).toMatchObject([{ id: subscriptionId, cancel_at_period_end: true }]);
    expect(kept.body.granted_benefits).toHaveLength(3);
    expect((await keys('validate', ids)).status).toBe(200);

    // Past the period end: canceled, every grant revoked, the key refused, the state empty.
    await advance('2028-07-16T00:00:00.000Z');
    expect((await api('GET', `/v1/subscriptions/${subscriptionId}`)).body).toMatchObject({
      status: 'canceled',
      ended_at: periodEnd,
    });
    const revoked = await settle(
      () => state(customerId),
      res => res.body.granted_benefits?.length === 0,
    );
    expect(revoked.body.active_subscriptions).toEqual([]);
    expect(revoked.body.granted_benefits).toEqual([]);
    const grants = await api('GET', `/v1/benefit-grants/?customer_id=${customerId}&limit=100`);
    expect(grants.body.items.map((g: any) => [g.benefit_id, g.is_granted, g.is_revoked]).sort()).toEqual(
      [
        [licence.id, false, true],
        [files.id, false, true],
        [note.id, false, true],
      ].sort(),
    );
    const refused = await keys('validate', ids);
    expect([refused.status, refused.body]).toEqual([
      404,
      { error: 'ResourceNotFound', detail: 'License key is no longer active.' },
    ]);
    expect((await api('GET', `/v1/license-keys/${keyId}`)).body.status).toBe('revoked');
    // The revoked grant's file is no longer offered.
    expect((await ok(portal.customerPortal.downloadables.list(security, {}))).result.items).toEqual([]);

    // The merchant's endpoint heard of each grant and each revocation; the SDK verifies and parses them.
    await receiver.until(() => receiver.on('/grants').length >= 6, 'six grant webhooks');
    const heard = receiver.on('/grants').map(r => {
      const event = validateEvent(
        r.body,
        {
          'webhook-id': r.headers['webhook-id'] as string,
          'webhook-timestamp': r.headers['webhook-timestamp'] as string,
          'webhook-signature': r.headers['webhook-signature'] as string,
        },
        endpoint.body.secret,
      ) as { type: string; data: { benefitId: string; customerId: string } };
      return [event.type, event.data.benefitId, event.data.customerId];
    });
    expect(heard.slice(0, 3).map(h => h[0])).toEqual(Array(3).fill('benefit_grant.created'));
    expect(heard.slice(3).map(h => h[0])).toEqual(Array(3).fill('benefit_grant.revoked'));
    for (const part of [heard.slice(0, 3), heard.slice(3)]) {
      expect(part.map(h => h[1]).sort()).toEqual([licence.id, files.id, note.id].sort());
      expect(part.every(h => h[2] === customerId)).toBe(true);
    }

    // Every customer.state_changed parses with the SDK; the last one says the customer holds nothing.
    const states = () =>
      receiver.on('/state').map(
        r =>
          validateEvent(
            r.body,
            {
              'webhook-id': r.headers['webhook-id'] as string,
              'webhook-timestamp': r.headers['webhook-timestamp'] as string,
              'webhook-signature': r.headers['webhook-signature'] as string,
            },
            stateEndpoint.body.secret,
          ) as { data: { id: string; grantedBenefits: unknown[]; activeSubscriptions: unknown[] } },
      );
    await receiver.until(() => {
      const last = states().at(-1);
      return last?.data.grantedBenefits.length === 0 && last.data.activeSubscriptions.length === 0;
    }, 'the empty customer state');
    expect(states().some(e => e.data.grantedBenefits.length === 3)).toBe(true);
    expect(states().every(e => e.data.id === customerId)).toBe(true);

    const revokedEvents = await outbox(['benefit_grant.revoked']);
    expect(
      revokedEvents
        .filter(e => e.payload.customer_id === customerId)
        .map(e => e.payload.benefit_id)
        .sort(),
    ).toEqual([licence.id, files.id, note.id].sort());
  });
});
