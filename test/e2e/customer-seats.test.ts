import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Customer seats over real HTTP (docs/customer-seats.md): the merchant assigns the seats of a
 * seat-based subscription, the invitation travels through the e-mail outbox, the holder claims it with
 * the token and gets a portal session, a seat is revoked and reused; each change records its
 * `customer_seat.*` event in the outbox.
 */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;
let fixtures: BillingFixtures;
let buyerId: string;
let plan: Awaited<ReturnType<BillingFixtures['product']>>;

const orm = () => stack.production.environment.billing.orm;
const sql = (statement: string, values: unknown[]) => orm().em.fork().getConnection().execute(statement, values);

async function tokenSentTo(to: string): Promise<string> {
  const [row] = await sql(
    `select text_body from billing.outgoing_emails where kind = 'customer_seat_invitation' and lower(to_address) = lower(?) order by created_at desc limit 1`,
    [to],
  );
  const match = /Your invitation token: (\S+)/.exec(row?.text_body ?? '');
  if (!match) throw new Error(`no invitation to ${to}`);
  return match[1]!;
}

const seatEvents = (seatId: string) =>
  sql(`select type, payload from billing.events where payload->>'id' = ? order by created_at, id`, [seatId]);

async function enableSeats(tenant: Tenant, on = true) {
  const res = await call(base, 'PATCH', `/v1/organizations/${tenant.organizationId}`, {
    token: tenant.oat,
    body: { feature_settings: { seat_based_pricing_enabled: on } },
  });
  expect(res.status).toBe(200);
}

const seatSubscription = (seats: number) =>
  fixtures.subscription({
    organizationId: alice.organizationId,
    customerId: buyerId,
    productId: plan.product.id,
    priceIds: [plan.price.id],
    seats,
  });

const assign = (body: Record<string, unknown>, token = alice.oat) =>
  call(base, 'POST', '/v1/customer-seats', { token, body });

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
  fixtures = new BillingFixtures(stack.production);
  buyerId = (await fixtures.customer(alice.organizationId)).id;
  plan = await fixtures.product(alice.organizationId, { name: 'Team plan', amount: 0 });
});

describe('/v1/customer-seats', () => {
  it('answers 403 FeatureNotEnabled while the organization has not switched seat-based pricing on', async () => {
    const sub = await seatSubscription(2);
    const res = await call(base, 'GET', `/v1/customer-seats?subscription_id=${sub.id}`, { token: alice.oat });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'FeatureNotEnabled',
      detail: 'Seat-based pricing is not enabled for this organization',
    });
  });

  it('assigns by e-mail, e-mails the invitation, and the token claims the seat once, with a portal session', async () => {
    await enableSeats(alice);
    const sub = await seatSubscription(2);
    const email = `seat-${Date.now()}@example.com`;
    const assigned = await assign({ subscription_id: sub.id, email, metadata: { team: 'red' } });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({
      subscription_id: sub.id,
      order_id: null,
      status: 'pending',
      customer_email: email,
      member: null,
      claimed_at: null,
      seat_metadata: { team: 'red' },
    });
    expect(Date.parse(assigned.body.invitation_token_expires_at)).toBeGreaterThan(Date.now());
    // The holder became a customer of the organization.
    const holder = await call(base, 'GET', `/v1/customers/${assigned.body.customer_id}`, { token: alice.oat });
    expect(holder.body.email).toBe(email);

    const list = await call(base, 'GET', `/v1/customer-seats?subscription_id=${sub.id}`, { token: alice.oat });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ available_seats: 1, total_seats: 2 });
    expect(list.body.seats.map((s: any) => s.id)).toEqual([assigned.body.id]);

    const token = await tokenSentTo(email);
    const info = await call(base, 'GET', `/v1/customer-seats/claim/${token}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      product_name: 'Team plan',
      product_id: plan.product.id,
      organization_slug: alice.slug,
      customer_email: email,
      can_claim: true,
    });

    const claimed = await call(base, 'POST', '/v1/customer-seats/claim', { body: { invitation_token: token } });
    expect(claimed.status).toBe(200);
    expect(claimed.body.seat).toMatchObject({ id: assigned.body.id, status: 'claimed' });
    expect(claimed.body.customer_session_token).toMatch(/^polar_cst_/);
    const me = await call(base, 'GET', '/v1/customer-portal/customers/me', {
      token: claimed.body.customer_session_token,
    });
    expect(me.body.email).toBe(email);

    const again = await call(base, 'POST', '/v1/customer-seats/claim', { body: { invitation_token: token } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'InvalidInvitationToken', detail: 'Invalid or expired invitation token' });
    expect((await call(base, 'GET', `/v1/customer-seats/claim/${token}`)).status).toBe(404);

    const events = await seatEvents(assigned.body.id);
    expect(events.map((e: any) => e.type)).toEqual(['customer_seat.assigned', 'customer_seat.claimed']);
    expect(events[1].payload).toMatchObject({ id: assigned.body.id, status: 'claimed', customer_email: email });
  });

  it('holds the count to the seats, refuses a second seat for one customer, and reuses a revoked seat', async () => {
    const sub = await seatSubscription(2);
    const other = await fixtures.customer(alice.organizationId);
    const first = await assign({ subscription_id: sub.id, customer_id: other.id, immediate_claim: true });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'claimed', customer_id: other.id, invitation_token_expires_at: null });
    const twice = await assign({ subscription_id: sub.id, customer_id: other.id });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toBe('SeatAlreadyAssigned');
    const second = await assign({ subscription_id: sub.id, email: `second-${Date.now()}@example.com` });
    expect(second.status).toBe(200);
    const full = await assign({ subscription_id: sub.id, email: `third-${Date.now()}@example.com` });
    expect(full.status).toBe(400);
    expect(full.body).toEqual({ error: 'SeatNotAvailable', detail: `No available seats for ${sub.id}` });

    const revoked = await call(base, 'DELETE', `/v1/customer-seats/${first.body.id}`, { token: alice.oat });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ status: 'revoked', customer_id: null, customer_email: null });
    expect(revoked.body.revoked_at).not.toBeNull();
    const events = await seatEvents(first.body.id);
    expect(events.map((e: any) => e.type)).toEqual(['customer_seat.claimed', 'customer_seat.revoked']);

    const reused = await assign({ subscription_id: sub.id, customer_id: other.id });
    expect(reused.status).toBe(200);
    expect(reused.body).toMatchObject({ id: first.body.id, status: 'pending', revoked_at: null });

    const notPending = await call(base, 'POST', `/v1/customer-seats/${second.body.id}/resend`, { token: alice.oat });
    expect(notPending.status).toBe(200);
    const claimedNow = await call(base, 'POST', '/v1/customer-seats/claim', {
      body: { invitation_token: await tokenSentTo(second.body.customer_email) },
    });
    expect(claimedNow.status).toBe(200);
    const resend = await call(base, 'POST', `/v1/customer-seats/${second.body.id}/resend`, { token: alice.oat });
    expect(resend.status).toBe(400);
    expect(resend.body).toEqual({ error: 'SeatNotPending', detail: 'Seat is not in pending status' });
  });

  it('resending issues a new token: the old one stops working', async () => {
    const sub = await seatSubscription(1);
    const email = `resend-${Date.now()}@example.com`;
    const seat = (await assign({ subscription_id: sub.id, email })).body;
    const oldToken = await tokenSentTo(email);
    expect((await call(base, 'POST', `/v1/customer-seats/${seat.id}/resend`, { token: alice.oat })).status).toBe(200);
    const newToken = await tokenSentTo(email);
    expect(newToken).not.toBe(oldToken);
    expect((await call(base, 'GET', `/v1/customer-seats/claim/${oldToken}`)).status).toBe(404);
    expect((await call(base, 'GET', `/v1/customer-seats/claim/${newToken}`)).status).toBe(200);
  });

  it('assigns by member_id: a member of the buyer, served with the seat, with Polar’s 400/404/422', async () => {
    const team = await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { type: 'team', email: `team-${Date.now()}@example.com` },
    });
    expect(team.status).toBe(201);
    const email = `member-${Date.now()}@example.com`;
    const member = await call(base, 'POST', `/v1/customers/${team.body.id}/members`, {
      token: alice.oat,
      body: { email, name: 'Mem', external_id: 'mem-1' },
    });
    expect(member.status).toBe(201);
    const sub = await fixtures.subscription({
      organizationId: alice.organizationId,
      customerId: team.body.id,
      productId: plan.product.id,
      priceIds: [plan.price.id],
      seats: 2,
    });
    const seat = await assign({ subscription_id: sub.id, member_id: member.body.id });
    expect(seat.status).toBe(200);
    expect(seat.body).toMatchObject({
      status: 'pending',
      member_id: member.body.id,
      email,
      customer_email: email,
      member: {
        id: member.body.id,
        customer_id: team.body.id,
        email,
        name: 'Mem',
        external_id: 'mem-1',
        role: 'member',
        created_at: member.body.created_at,
        modified_at: null,
      },
    });
    // The invitation went to the member, and the seat holder is the customer with its e-mail.
    expect(await tokenSentTo(email)).toEqual(expect.any(String));
    const holder = await call(base, 'GET', `/v1/customers/${seat.body.customer_id}`, { token: alice.oat });
    expect(holder.body.email).toBe(email);
    const listed = await call(base, 'GET', `/v1/customer-seats?subscription_id=${sub.id}`, { token: alice.oat });
    expect(listed.body.seats[0].member).toEqual(seat.body.member);
    expect((await seatEvents(seat.body.id))[0].payload.member).toMatchObject({ id: member.body.id, email });

    const twice = await assign({ subscription_id: sub.id, member_id: member.body.id });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ error: 'SeatAlreadyAssigned', detail: `Seat already assigned to customer ${email}` });
    // Another customer's member is not the buyer's.
    const [holderOwner] = (await call(base, 'GET', `/v1/customers/${holder.body.id}/members`, { token: alice.oat }))
      .body.items;
    const foreign = await assign({ subscription_id: sub.id, member_id: holderOwner.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'MemberNotFound', detail: `Member not found: ${holderOwner.id}` });
    const withEmail = await assign({ subscription_id: sub.id, member_id: member.body.id, email });
    expect(withEmail.status).toBe(422);
    expect(withEmail.body.detail[0].msg).toBe('Value error, Cannot combine member_id with email');
    const notUuid = await assign({ subscription_id: sub.id, member_id: 'nope' });
    expect([notUuid.status, notUuid.body.detail[0].loc]).toEqual([422, ['body', 'member_id']]);
    const listedAfter = await call(base, 'GET', `/v1/customer-seats?subscription_id=${sub.id}`, { token: alice.oat });
    expect(listedAfter.body.available_seats).toBe(1);

    // Deleting the member revokes its seat, with its customer_seat.revoked.
    const gone = await call(base, 'DELETE', `/v1/customers/${team.body.id}/members/${member.body.id}`, {
      token: alice.oat,
    });
    expect(gone.status).toBe(204);
    const after = await call(base, 'GET', `/v1/customer-seats?subscription_id=${sub.id}`, { token: alice.oat });
    expect(after.body.seats[0]).toMatchObject({ status: 'revoked', member: null, member_id: null, email: null });
    expect((await seatEvents(seat.body.id)).map((e: any) => e.type)).toEqual([
      'customer_seat.assigned',
      'customer_seat.revoked',
    ]);
    expect((await call(base, 'GET', `/v1/customer-seats/claim/${await tokenSentTo(email)}`)).status).toBe(404);
  });

  it('keeps tenants apart, checks scopes, and refuses bad bodies while changing nothing', async () => {
    const sub = await seatSubscription(2);
    await enableSeats(bob);
    const foreign = await call(base, 'GET', `/v1/customer-seats?subscription_id=${sub.id}`, { token: bob.oat });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'ResourceNotFound', detail: 'Subscription not found' });
    const seat = (await assign({ subscription_id: sub.id, email: `x-${Date.now()}@example.com` })).body;
    expect((await call(base, 'DELETE', `/v1/customer-seats/${seat.id}`, { token: bob.oat })).status).toBe(404);

    const readOnly = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'customer_seats:read',
    ]);
    expect((await call(base, 'GET', `/v1/customer-seats?subscription_id=${sub.id}`, { token: readOnly })).status).toBe(
      200,
    );
    const refused = await assign({ subscription_id: sub.id, email: 'nope@example.com' }, readOnly);
    expect(refused.status).toBe(403);

    const neither = await assign({ email: 'a@example.com' });
    expect(neither.status).toBe(422);
    expect(neither.body.detail[0]).toMatchObject({
      type: 'value_error',
      loc: ['body'],
      msg: 'Value error, Exactly one of subscription_id or order_id must be provided',
    });
    const nobody = await assign({ subscription_id: sub.id });
    expect(nobody.status).toBe(422);
    const unknown = await assign({ subscription_id: sub.id, customer_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: 'CustomerNotFound',
      detail: 'Customer not found: 00000000-0000-4000-8000-000000000000',
    });
    const list = await call(base, 'GET', `/v1/customer-seats?subscription_id=${sub.id}`, { token: alice.oat });
    expect(list.body.seats).toHaveLength(1);
  });
});
