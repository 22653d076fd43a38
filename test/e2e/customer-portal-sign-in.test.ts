import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../kit/clock.js';
import { zoneOf } from '../../rest-adapter/guards/rate-limit/rules.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { until } from '../support/until.js';

/**
 * The customer portal's sign-in by e-mailed code (Polar's `/v1/customer-portal/customer-session/request`
 * and `…/authenticate`): the code travels through the e-mail outbox (`billing.outgoing_emails`, read here
 * as a test reads an inbox), is hashed at rest, lives 30 minutes and works once.
 */
const clock = new ManualClock(new Date('2026-11-24T10:00:00.000Z'));
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;
let email: string;
let customerId: string;

const orm = () => stack.production.environment.billing.orm;

async function outbox(to: string): Promise<any[]> {
  return orm()
    .em.fork()
    .execute('select * from billing.outgoing_emails where lower(to_address) = lower(?) order by created_at', [to]);
}

/** The messages `codeSentTo` has already handed out. */
const handedOut = new Set<string>();

/** The code of the one message sent to `to` since the last call, once the outbox job has sent it. */
async function codeSentTo(to: string): Promise<string> {
  // The request hands the job to the runner right after its commit; wait for it (or run it here).
  let last: any;
  // Up to a minute: the machine may be busy; usually the first look finds it sent. Not the last row by
  // `created_at`: this file's clock stands still, so its messages' times are all the same.
  await until(async () => {
    await stack.production.environment.billing.jobs.drain();
    last = (await outbox(to)).find(row => !handedOut.has(row.id));
    return last?.status === 'sent';
  }, 60_000);
  if (last) handedOut.add(last.id);
  expect(last).toMatchObject({ status: 'sent', last_error: null });
  const match = /^([A-Z0-9]{6})$/m.exec(last.text_body);
  expect(match).not.toBeNull();
  return match![1];
}

const request = (body: unknown) => call(base, 'POST', '/v1/customer-portal/customer-session/request', { body });
const authenticate = (code: string) =>
  call(base, 'POST', '/v1/customer-portal/customer-session/authenticate', { body: { code } });

beforeAll(async () => {
  stack = await sharedTestStack(clock);
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production, { name: 'Alice Tools' });
  bob = await createTenant(stack.production);
  email = `Buyer-${randomUUID()}@Example.com`;
  const created = await call(base, 'POST', '/v1/customers/', { token: alice.oat, body: { email, name: 'Buyer' } });
  expect(created.status).toBe(201);
  customerId = created.body.id;
});

describe('customer_portal:customer-session:request', () => {
  it('answers 202 with no body and e-mails a 6-character code naming the seller and the portal', async () => {
    const res = await request({ email: email.toLowerCase(), organization_id: alice.organizationId });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    const code = await codeSentTo(email);
    const [row] = (await outbox(email)).slice(-1);
    expect(row).toMatchObject({
      kind: 'customer_session_code',
      organization_id: alice.organizationId,
      subject: 'Access your Alice Tools purchases',
      attempts: 1,
      transport: 'log',
    });
    expect(row.text_body).toContain(`/portal/${alice.slug}/authenticate`);
    // Hashed at rest: the code itself is in no column of the codes table.
    const stored = await orm()
      .em.fork()
      .execute('select * from billing.customer_session_codes where customer_id = ?', [customerId]);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(code);
  });

  it('answers the same 202 for an unknown e-mail, another organization and an unknown organization, sending nothing', async () => {
    const stranger = `nobody-${randomUUID()}@example.com`;
    const unknownOrganization = randomUUID();
    for (const body of [
      { email: stranger, organization_id: alice.organizationId },
      { email, organization_id: bob.organizationId },
      { email, organization_id: unknownOrganization },
    ]) {
      const res = await request(body);
      expect(res.status).toBe(202);
      expect(res.text).toBe('');
    }
    expect(await outbox(stranger)).toHaveLength(0);
    // No code at the other organizations, nor for the stranger (other files' organizations share this
    // worker's stack: docs/testing.md#one-stack-per-worker).
    const codes = await orm()
      .em.fork()
      .execute(
        'select count(*)::int as n from billing.customer_session_codes where organization_id in (?, ?) or email = ?',
        [bob.organizationId, unknownOrganization, stranger],
      );
    expect(codes[0].n).toBe(0);
  });

  it('refuses a malformed body with 422 and changes nothing', async () => {
    const res = await request({ email: 'not-an-email', organization_id: 'nope' });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: any) => d.loc.join('.')).sort()).toEqual(['body.email', 'body.organization_id']);
  });
});

describe('customer_portal:customer-session:authenticate', () => {
  it('trades the code for a customer session token once, which reads the portal as that customer', async () => {
    await request({ email, organization_id: alice.organizationId });
    const code = await codeSentTo(email);
    const res = await authenticate(code);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['token']);
    expect(res.body.token).toMatch(/^polar_cst_/);
    const me = await call(base, 'GET', '/v1/customer-portal/customers/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: customerId, email_verified: true });

    const again = await authenticate(code);
    expect(again.status).toBe(401);
    expect(again.body).toEqual({
      error: 'CustomerSessionCodeInvalidOrExpired',
      detail: 'This customer session code is invalid or has expired.',
    });
  });

  it('accepts the code in lower case; refuses unknown codes and codes older than 30 minutes with 401', async () => {
    await request({ email, organization_id: alice.organizationId });
    const code = await codeSentTo(email);
    expect((await authenticate(code.toLowerCase())).status).toBe(200);

    expect((await authenticate('ZZZZZZ')).status).toBe(401);
    expect((await authenticate('')).status).toBe(401);

    await request({ email, organization_id: alice.organizationId });
    const late = await codeSentTo(email);
    clock.advance(30 * 60 * 1000 + 1000);
    const res = await authenticate(late);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('CustomerSessionCodeInvalidOrExpired');
    // Once the codes have expired, the outbox keeps the messages but no longer their codes.
    await stack.production.environment.billing.jobs.drain();
    const rows = await outbox(email);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) expect(row).toMatchObject({ status: 'sent', text_body: '[redacted]' });
  });

  it('is documented in the OpenAPI document with its 202 and 401', async () => {
    const doc = (await call(base, 'GET', '/openapi.json')).body;
    expect(doc.paths['/v1/customer-portal/customer-session/request'].post.responses['202']).toBeDefined();
    expect(doc.paths['/v1/customer-portal/customer-session/authenticate'].post.responses['401']).toBeDefined();
  });
});

describe('rate limits of the code sign-in', () => {
  it('puts the API endpoints and the portal pages that call them in the sign_in zone (production, posts)', () => {
    for (const path of [
      '/v1/customer-portal/customer-session/request',
      '/v1/customer-portal/customer-session/authenticate',
      '/portal/acme/request',
      '/portal/acme/authenticate',
    ])
      expect(zoneOf('production', 'POST', path)?.name).toBe('sign_in');
    expect(zoneOf('production', 'GET', '/portal/acme/request')).toBeUndefined();
    expect(zoneOf('production', 'POST', '/portal/acme/billing')).toBeUndefined();
  });

  it('a wrong code answers 401 with WWW-Authenticate', async () => {
    const res = await authenticate('AAAAAA');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="polar"');
  });
});
