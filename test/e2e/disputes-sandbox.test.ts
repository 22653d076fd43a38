import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Disputes rehearsed in the sandbox (docs/disputes.md#rehearsing-in-the-sandbox): the test processor opens a
 * dispute on a paid order and moves it as a card network would, through the same handler as Stripe's events;
 * the merchant reads it at `/v1/disputes/` and concedes it with `accept`.
 */
const START = new Date('2028-03-01T10:00:00.000Z');
const wall = new ManualClock(START);
let stack: TestStack;
let sandbox: string;
let shop: Tenant;
let other: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  sandbox = stack.sandbox.baseUrl;
  shop = await createTenant(stack.sandbox);
  other = await createTenant(stack.sandbox);
}, 120_000);

const api = (method: string, path: string, body?: unknown, token = shop.oat) =>
  call(sandbox, method, path, { token, body });

/** A one-time purchase of `amount` cents paid with the test processor's visa; its order. */
async function paidOrder(amount: number, email: string): Promise<Record<string, any>> {
  const product = await api('POST', '/v1/products/', {
    name: 'Course',
    prices: [{ amount_type: 'fixed', price_amount: amount }],
  });
  expect(product.status).toBe(201);
  const checkout = await api('POST', '/v1/checkouts/', { products: [product.body.id], customer_email: email });
  const confirmed = await call(sandbox, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  const orders = await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`);
  expect(orders.body.items).toEqual([expect.objectContaining({ status: 'paid' })]);
  return orders.body.items[0];
}

describe('a rehearsed chargeback', () => {
  let order: Record<string, any>;
  let dispute: Record<string, any>;

  beforeAll(async () => {
    order = await paidOrder(2500, 'buyer@example.com');
  });

  it('opens on the order’s payment, needing a response within 7 days of the organization’s clock', async () => {
    const opened = await api('POST', '/v1/sandbox/disputes/', { order_id: order.id, reason: 'product_not_received' });
    expect(opened.status).toBe(201);
    dispute = opened.body;
    const [payment] = (await api('GET', `/v1/payments/?order_id=${order.id}`)).body.items;
    expect(dispute).toMatchObject({
      status: 'needs_response',
      resolved: false,
      closed: false,
      amount: 2500,
      tax_amount: 0,
      currency: 'usd',
      reason: 'product_not_received',
      evidence_due_by: new Date(START.getTime() + 7 * 86_400_000).toISOString(),
      past_due: false,
      order_id: order.id,
      payment_id: payment.id,
      case_id: null,
      customer: expect.objectContaining({ id: order.customer_id, email: 'buyer@example.com' }),
    });
  });

  it('is listed and read by its organization, filtered by order and status; another organization sees nothing', async () => {
    expect((await api('GET', `/v1/disputes/${dispute.id}`)).body).toEqual(dispute);
    const listed = await api('GET', `/v1/disputes/?order_id=${order.id}&status=needs_response`);
    expect([listed.status, listed.body.items, listed.body.pagination]).toEqual([
      200,
      [dispute],
      { total_count: 1, max_page: 1 },
    ]);
    expect((await api('GET', '/v1/disputes/?status=won')).body.items).toEqual([]);
    const foreign = await api('GET', `/v1/disputes/${dispute.id}`, undefined, other.oat);
    expect([foreign.status, foreign.body.error]).toEqual([404, 'ResourceNotFound']);
    expect((await api('GET', '/v1/disputes/', undefined, other.oat)).body.items).toEqual([]);
    const conceded = await api('POST', `/v1/disputes/${dispute.id}/accept`, undefined, other.oat);
    expect(conceded.status).toBe(404);
  });

  it('needs disputes:read to read and disputes:write to accept', async () => {
    const reader = await stack.sandbox.admin.createOrganizationAccessToken(shop.organizationId, ['disputes:read']);
    const none = await stack.sandbox.admin.createOrganizationAccessToken(shop.organizationId, ['orders:read']);
    expect((await api('GET', '/v1/disputes/', undefined, reader)).status).toBe(200);
    expect((await api('GET', '/v1/disputes/', undefined, none)).status).toBe(403);
    const refused = await api('POST', `/v1/disputes/${dispute.id}/accept`, undefined, reader);
    expect(refused.status).toBe(403);
    expect((await api('GET', `/v1/disputes/${dispute.id}`)).body.status).toBe('needs_response');
  });

  it('accepting concedes it: lost and closed; a second accept is 409 DisputeNotOpenError', async () => {
    const accepted = await api('POST', `/v1/disputes/${dispute.id}/accept`);
    expect([accepted.status, accepted.body]).toEqual([
      200,
      expect.objectContaining({ id: dispute.id, status: 'lost', resolved: true, closed: true }),
    ]);
    const again = await api('POST', `/v1/disputes/${dispute.id}/accept`);
    expect([again.status, again.body.error]).toEqual([409, 'DisputeNotOpenError']);
    // A late report from the network does not reopen a closed dispute.
    const late = await api('POST', `/v1/sandbox/disputes/${dispute.id}/status`, { status: 'won' });
    expect(late.body.status).toBe('lost');
  });

  it('moves as the network decides: under review, then won (which cannot be accepted)', async () => {
    const second = (await api('POST', '/v1/sandbox/disputes/', { order_id: order.id, amount: 1000 })).body;
    expect(second).toMatchObject({ status: 'needs_response', amount: 1000, reason: 'fraudulent' });
    const review = await api('POST', `/v1/sandbox/disputes/${second.id}/status`, { status: 'under_review' });
    expect(review.body).toMatchObject({ status: 'under_review', closed: false });
    const won = await api('POST', `/v1/sandbox/disputes/${second.id}/status`, { status: 'won' });
    expect(won.body).toMatchObject({ status: 'won', resolved: true, closed: true });
    expect((await api('POST', `/v1/disputes/${second.id}/accept`)).status).toBe(409);
    const sorted = await api('GET', `/v1/disputes/?order_id=${order.id}&sorting=amount`);
    expect(sorted.body.items.map((d: any) => d.amount)).toEqual([1000, 2500]);
  });
});

describe('bad input changes nothing', () => {
  it('an unknown order, an order of another organization, or more than was paid: 422 at the field', async () => {
    const order = await paidOrder(900, 'bad@example.com');
    const unknown = await api('POST', '/v1/sandbox/disputes/', { order_id: crypto.randomUUID() });
    expect([unknown.status, unknown.body.detail[0].loc]).toEqual([422, ['body', 'order_id']]);
    const foreign = await api('POST', '/v1/sandbox/disputes/', { order_id: order.id }, other.oat);
    expect([foreign.status, foreign.body.detail[0].loc]).toEqual([422, ['body', 'order_id']]);
    const tooMuch = await api('POST', '/v1/sandbox/disputes/', { order_id: order.id, amount: 901 });
    expect([tooMuch.status, tooMuch.body.detail[0].loc]).toEqual([422, ['body', 'amount']]);
    const badStatus = await api('GET', '/v1/disputes/?status=open');
    expect(badStatus.status).toBe(422);
    expect((await api('GET', `/v1/disputes/?order_id=${order.id}`)).body.items).toEqual([]);
  });
});

describe('production', () => {
  it('has no sandbox dispute routes (404), and its dispute list starts empty', async () => {
    const carol = await createTenant(stack.production);
    const base = stack.production.baseUrl;
    const open = await call(base, 'POST', '/v1/sandbox/disputes/', {
      token: carol.oat,
      body: { order_id: crypto.randomUUID() },
    });
    expect([open.status, open.body]).toEqual([404, { detail: 'Not Found' }]);
    const list = await call(base, 'GET', '/v1/disputes/', { token: carol.oat });
    expect([list.status, list.body.items]).toEqual([200, []]);
  });
});
