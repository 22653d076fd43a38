import { systemClock } from '../../kit/clock.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { call, TEST_SECRET } from '../support/stack.js';
import { createSign } from 'node:crypto';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  alice,
  bob,
  gateway,
  GITHUB_KEY,
  identity,
  identityRuntime,
  logsOf,
  parts,
  PUBLIC_URL,
  rest,
  useDistributedStack,
} from './support.js';

useDistributedStack();

describe('REST through the distributed chain', () => {
  it('lists the organization of an organization token', async () => {
    const res = await call(rest.url, 'GET', '/v1/organizations/', { token: alice.oat });
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}\n${parts.map(logsOf).join('\n')}`);
    expect(res.body.items.map((o: any) => o.id)).toEqual([alice.organizationId]);
    expect(res.body.pagination).toEqual({ total_count: 1, max_page: 1 });
    expect(res.headers.get('x-polar-sandbox')).toBeNull();
  });

  it('gets and updates one organization', async () => {
    const got = await call(rest.url, 'GET', `/v1/organizations/${alice.organizationId}`, { token: alice.oat });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: alice.organizationId, slug: alice.slug });

    const patched = await call(rest.url, 'PATCH', `/v1/organizations/${alice.organizationId}`, {
      token: alice.oat,
      body: { name: 'Renamed over the wire', website: 'https://distributed.example' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: alice.organizationId,
      name: 'Renamed over the wire',
      website: 'https://distributed.example',
    });

    const again = await call(rest.url, 'GET', `/v1/organizations/${alice.organizationId}`, { token: alice.pat });
    expect(again.body.name).toBe('Renamed over the wire');
  });

  it('answers an unknown bearer with the OAuth-shaped 401', async () => {
    for (const token of ['polar_oat_unknownunknownunknownunknownunknown', 'not-a-polar-token']) {
      const res = await call(rest.url, 'GET', '/v1/organizations/', { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: 'invalid_token',
        error_description: 'The access token provided is expired, revoked, malformed, or invalid for other reasons.',
      });
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });

  it('creates and reads a customer, and a customer session token is resolved by billing', async () => {
    const created = await call(rest.url, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: `dist-${Date.now()}@example.com`, name: 'Distributed' },
    });
    if (created.status !== 201) throw new Error(`${created.status} ${created.text}\n${parts.map(logsOf).join('\n')}`);
    expect(created.body).toMatchObject({
      name: 'Distributed',
      organization_id: alice.organizationId,
      type: 'individual',
    });
    expect((await call(rest.url, 'GET', `/v1/customers/${created.body.id}`, { token: alice.oat })).body.id).toBe(
      created.body.id,
    );
    expect((await call(rest.url, 'GET', `/v1/customers/${created.body.id}`, { token: bob.oat })).status).toBe(404);

    const session = await call(rest.url, 'POST', '/v1/customer-sessions/', {
      token: alice.oat,
      body: { customer_id: created.body.id },
    });
    expect(session.status).toBe(201);
    expect(session.body.customer_portal_url.startsWith(`${PUBLIC_URL}/portal?customer_session_token=polar_cst_`)).toBe(
      true,
    );
    const me = await call(rest.url, 'GET', '/v1/customer-portal/customers/me', { token: session.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: created.body.id, name: 'Distributed' });
    expect((await call(rest.url, 'GET', '/v1/customers/', { token: session.body.token })).status).toBe(401);
    const unknown = await call(rest.url, 'GET', '/v1/customer-portal/customers/me', {
      token: `polar_cst_${'x'.repeat(43)}`,
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('invalid_token');
  });

  it('treats a request without credentials as anonymous', async () => {
    const res = await call(rest.url, 'GET', '/v1/organizations/');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
  });

  it('delivers a billing event to a webhook: outbox relay → signed RPC → webhooks process → receiver', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const endpoint = await call(rest.url, 'POST', '/v1/webhooks/endpoints', {
        token: alice.oat,
        body: { url: receiver.url('/hook'), format: 'raw', events: ['customer.created'] },
      });
      expect(endpoint.status).toBe(201);
      const customer = await call(rest.url, 'POST', '/v1/customers/', {
        token: alice.oat,
        body: { email: `webhook-${Date.now()}@example.com` },
      });
      expect(customer.status).toBe(201);
      // Earlier tests' customers may arrive too (the endpoint subscribes before their events are relayed).
      const ours = () => receiver.on('/hook').find(r => JSON.parse(r.body).data.id === customer.body.id);
      await receiver.until(() => ours() !== undefined, 'customer.created');
      const hook = ours()!;
      const event = validateEvent(hook.body, hook.headers as Record<string, string>, endpoint.body.secret);
      expect(event).toMatchObject({ type: 'customer.created', data: { id: customer.body.id } });
    } finally {
      await receiver.close();
    }
  });

  it('a separate worker process disables an endpoint whose last 10 events failed and e-mails its owner through billing', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const endpoint = await call(rest.url, 'POST', '/v1/webhooks/endpoints', {
        token: alice.oat,
        body: { url: receiver.url('/fail'), format: 'raw', events: ['customer.created'] },
      });
      expect(endpoint.status).toBe(201);
      for (let i = 0; i < 10; i++) {
        const customer = await call(rest.url, 'POST', '/v1/customers/', {
          token: alice.oat,
          body: { email: `failing-${i}-${Date.now()}@example.com` },
        });
        expect(customer.status).toBe(201);
      }
      await receiver.until(() => receiver.on('/fail').length >= 100, '100 failed attempts', 60_000);
      // Other endpoints of this tenant may be disabled too (an earlier test's receiver is gone): ours by its URL.
      const outbox = () =>
        identityRuntime!.orm.em.getConnection().execute<{ to_address: string; subject: string }[]>(
          `select to_address, subject from billing.outgoing_emails
              where kind = 'webhook_endpoint_disabled' and organization_id = ? and subject like ?`,
          [alice.organizationId, `%${endpoint.body.url}`],
        );
      for (let i = 0; i < 200 && (await outbox()).length === 0; i++) await new Promise(r => setTimeout(r, 50));
      expect(await outbox()).toEqual([
        { to_address: alice.email, subject: `Webhook endpoint disabled: ${endpoint.body.url}` },
      ]);
      const state = await call(rest.url, 'GET', `/v1/webhooks/endpoints/${endpoint.body.id}`, { token: alice.oat });
      expect(state.body.enabled).toBe(false);
    } finally {
      await receiver.close();
    }
    // A hundred failed deliveries with their backoff, then the e-mail: the receiver's own wait is 60 s.
  }, 120_000);

  it("hands Stripe's webhooks to billing over signed RPC (here without a signing secret: 503 naming it)", async () => {
    const answer = await call(rest.url, 'POST', '/v1/integrations/stripe/webhook', {
      rawBody: '{"id":"evt_1","type":"payment_intent.succeeded"}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      error: 'ProcessorWebhookNotConfigured',
      detail: expect.stringContaining('STRIPE_WEBHOOK_SECRET'),
    });
  });

  it("hides another tenant's organization behind a 404", async () => {
    const res = await call(rest.url, 'GET', `/v1/organizations/${bob.organizationId}`, { token: alice.oat });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ResourceNotFound', detail: expect.any(String) });
  });

  it('runs GraphQL through adapter, gateway and subgraph', async () => {
    const res = await call(rest.url, 'POST', '/graphql', {
      token: bob.oat,
      body: {
        query: 'query Mine { organizations { items { id slug } pagination { totalCount } } }',
        operationName: 'Mine',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { organizations: { items: [{ id: bob.organizationId, slug: bob.slug }], pagination: { totalCount: 1 } } },
    });

    const foreign = await call(rest.url, 'POST', '/graphql', {
      token: bob.oat,
      body: { query: 'query($id: ID!) { organization(id: $id) { id } }', variables: { id: alice.organizationId } },
    });
    expect(foreign.body.data).toBeNull();
    expect(foreign.body.errors[0].extensions).toEqual({ code: 'ResourceNotFound', http: { status: 404 } });

    const invalid = await call(rest.url, 'POST', '/graphql', { token: bob.oat, body: { query: '{ nope }' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('serves health, readiness and the OpenAPI document', async () => {
    for (const part of [identity, gateway, rest]) {
      expect((await call(part.url, 'GET', '/healthz')).status).toBe(200);
      expect((await call(part.url, 'GET', '/readyz')).status).toBe(200);
    }
    const openapi = await call(rest.url, 'GET', '/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.servers[0].url).toBe(PUBLIC_URL);
  });

  it('revokes leaked tokens GitHub reports, through identity and billing (signed RPC)', async () => {
    const oat = await new IdentityAdmin(
      identityRuntime!.orm,
      identityRuntime!.services,
      systemClock,
      TEST_SECRET,
    ).createOrganizationAccessToken(alice.organizationId, ['organizations:read']);
    const customer = await call(rest.url, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: `leak-${Date.now()}@example.com` },
    });
    const session = await call(rest.url, 'POST', '/v1/customer-sessions/', {
      token: alice.oat,
      body: { customer_id: customer.body.id },
    });
    const cst = session.body.token as string;
    expect((await call(rest.url, 'GET', '/v1/organizations/', { token: oat })).status).toBe(200);
    expect((await call(rest.url, 'GET', '/v1/customer-portal/customers/me', { token: cst })).status).toBe(200);
    const body = JSON.stringify([
      { token: oat, type: 'polar_organization_access_token', source: 'content' },
      { token: cst, type: 'polar_customer_session_token', source: 'content' },
    ]);
    const answer = await call(rest.url, 'POST', '/v1/integrations/github/secret-scanning', {
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        'github-public-key-identifier': 'k1',
        'github-public-key-signature': createSign('SHA256').update(body).sign(GITHUB_KEY.privateKey, 'base64'),
      },
    });
    if (answer.status !== 200) throw new Error(`${answer.status} ${answer.text}\n${parts.map(logsOf).join('\n')}`);
    expect(answer.body.map((r: { label: string }) => r.label)).toEqual(['true_positive', 'true_positive']);
    expect((await call(rest.url, 'GET', '/v1/organizations/', { token: oat })).status).toBe(401);
    expect((await call(rest.url, 'GET', '/v1/customer-portal/customers/me', { token: cst })).status).toBe(401);
    // Owners e-mailed through billing's outbox (REST adapter → billing → identity, signed RPC).
    const emails = await identityRuntime!.orm.em.getConnection().execute<{ to_address: string; subject: string }[]>(
      `select to_address, subject from billing.outgoing_emails
          where kind = 'leaked_token_revoked' and organization_id = ? order by subject`,
      [alice.organizationId],
    );
    expect(emails.map(e => [e.to_address, e.subject.split(' was ')[0]])).toEqual([
      [alice.email, 'Your customer session token'],
      [alice.email, 'Your organization access token "CLI"'],
    ]);
  });

  it('stops honouring a revoked token within the cache lifetime', async () => {
    const token = await new IdentityAdmin(
      identityRuntime!.orm,
      identityRuntime!.services,
      systemClock,
      TEST_SECRET,
    ).createOrganizationAccessToken(alice.organizationId, ['organizations:read']);
    expect((await call(rest.url, 'GET', '/v1/organizations/', { token })).status).toBe(200);
    await new IdentityAdmin(identityRuntime!.orm, identityRuntime!.services, systemClock, TEST_SECRET).revokeToken(
      token,
    );
    const deadline = Date.now() + 20_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise(resolve => setTimeout(resolve, 500));
      status = (await call(rest.url, 'GET', '/v1/organizations/', { token })).status;
    }
    expect(status).toBe(401);
  }, 30_000);
});

describe('shutdown', () => {
  it('every part stops cleanly on SIGTERM', async () => {
    for (const part of parts) part.child.kill('SIGTERM');
    const codes = await Promise.all(parts.map(p => p.exit));
    expect(codes).toEqual(parts.map(() => 0));
  }, 30_000);
});
