import { createSign, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { systemClock } from '../../kit/clock.js';
import { loadConfig } from '../../kit/config.js';
import type { OwnerEmail, OwnerMailbox } from '../../kit/email/owner-mailbox.js';
import { LEAK_NOTICE_HANDOVER_FAULT } from '../../kit/leaked-tokens.js';
import { createLogger } from '../../kit/logger.js';
import { startEnvironment } from '../../embedded/environment.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { type PreparedServer, prepareServer } from '../support/crash-server.js';
import { query, type ServerSetup, startServer, stopServer, within } from '../support/embedded-server.js';
import {
  call,
  createTenant,
  type RunningEnvironment,
  startTestStack,
  TEST_SECRET,
  type TestStack,
} from '../support/stack.js';

/**
 * The owner's e-mail about a revoked leaked token is never lost: it is written in the revocation's
 * transaction (`identity.owner_notices`, `billing.owner_notices`) and handed to billing's outbox by a
 * relay, so billing being unreachable, a relay dying after queueing, or the whole process killed right
 * after the revocation commits all end with exactly one e-mail per recipient.
 */
jest.setTimeout(240_000);
const PATH = '/v1/integrations/github/secret-scanning';
const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const GITHUB_KEYS = JSON.stringify({
  public_keys: [{ key_identifier: 'k', key: publicKey.export({ type: 'spki', format: 'pem' }), is_current: true }],
});

function report(baseUrl: string, token: string) {
  const body = JSON.stringify([{ token, type: 'polar_organization_access_token', url: null, source: 'content' }]);
  return call(baseUrl, 'POST', PATH, {
    rawBody: body,
    headers: {
      'content-type': 'application/json',
      'github-public-key-identifier': 'k',
      'github-public-key-signature': createSign('SHA256').update(body).sign(privateKey).toString('base64'),
    },
  });
}

const emailsOf = (env: RunningEnvironment, organizationId: string) =>
  env.environment.billing.orm.em
    .fork()
    .execute<{ to_address: string }[]>(
      `select to_address from billing.outgoing_emails where kind = 'leaked_token_revoked' and organization_id = ?
        order by to_address`,
      [organizationId],
    )
    .then(rows => rows.map(r => r.to_address));

describe('in one process', () => {
  let stack: TestStack;
  let env: RunningEnvironment;
  beforeAll(async () => {
    stack = await startTestStack('leak_notices', undefined, { GITHUB_SECRET_SCANNING_KEYS: GITHUB_KEYS });
    env = stack.production;
    // No background poll: each pass here is the revocation's own hand-over or the test's relayOnce.
    await env.environment.identity.ownerNotices.stop();
  });
  afterAll(() => stack?.close());

  /** An organization with an owner and an admin (both told), and a live organization access token. */
  async function leakyOrganization() {
    const tenant = await createTenant(env);
    const admin = `admin-${randomUUID()}@example.com`;
    await env.admin.createUser(admin, 'correct horse battery');
    await env.admin.addMember(tenant.organizationId, admin, MemberRole.ADMIN);
    const token = await env.admin.createOrganizationAccessToken(tenant.organizationId, ['organizations:read']);
    return { tenant, token, recipients: [admin, tenant.email].sort() };
  }

  const useMailbox = (mailbox: OwnerMailbox) => env.environment.identity.ownerNotices.use(mailbox);
  const realMailbox = () => env.environment.billing.ownerMailbox;

  /** Reports `token` while the mailbox cannot be reached: revoked, its notice left waiting. */
  async function revokeWhileBillingDown(token: string) {
    useMailbox({ queue: async () => Promise.reject(new Error('connect ECONNREFUSED (billing)')) });
    try {
      expect((await report(env.baseUrl, token)).body).toEqual([expect.objectContaining({ label: 'true_positive' })]);
    } finally {
      useMailbox(realMailbox());
    }
  }

  it('billing unreachable at the revocation: the e-mail waits, then goes once the relay reaches it', async () => {
    const { tenant, token, recipients } = await leakyOrganization();
    await revokeWhileBillingDown(token);
    expect(await emailsOf(env, tenant.organizationId)).toEqual([]);
    await env.environment.identity.ownerNotices.relayOnce();
    expect(await emailsOf(env, tenant.organizationId)).toEqual(recipients);
    expect((await env.environment.identity.ownerNotices.relayOnce()).size).toBe(0);
    expect(await emailsOf(env, tenant.organizationId)).toEqual(recipients);
  });

  it('a notice claimed by a relay that died waits for the end of its lease, then goes once', async () => {
    const { tenant, token, recipients } = await leakyOrganization();
    await revokeWhileBillingDown(token);
    const notices = env.environment.identity.orm.em.getConnection();
    const claim = (interval: string) =>
      notices.execute(
        `update identity.owner_notices set claimed_until = now() + interval '${interval}'
          where email->>'organizationId' = ? and emailed_at is null`,
        [tenant.organizationId],
      );
    await claim('30 seconds'); // as a relay killed while handing it over leaves it
    expect((await env.environment.identity.ownerNotices.relayOnce()).size).toBe(0);
    expect(await emailsOf(env, tenant.organizationId)).toEqual([]);
    await claim('-1 second'); // its lease is over
    expect((await env.environment.identity.ownerNotices.relayOnce()).size).toBe(1);
    expect(await emailsOf(env, tenant.organizationId)).toEqual(recipients);
  });

  it("a notice the relay's poll claimed first: the revocation's hand-over waits for that pass, so the e-mail is queued before the answer", async () => {
    const { tenant, token, recipients } = await leakyOrganization();
    await revokeWhileBillingDown(token);
    const [{ key }] = await env.environment.identity.orm.em
      .getConnection()
      .execute<{ key: string }[]>(
        `select key from identity.owner_notices where email->>'organizationId' = ? and emailed_at is null`,
        [tenant.organizationId],
      );
    // The poll's pass has claimed the notice and is in the mailbox when the revocation's hand-over starts
    // (the window between the revocation's commit and its hand-over).
    let release = () => {};
    const gate = new Promise<void>(resolve => {
      release = resolve;
    });
    let inMailbox = () => {};
    const entered = new Promise<void>(resolve => {
      inMailbox = resolve;
    });
    useMailbox({
      queue: async (email: OwnerEmail) => {
        inMailbox();
        await gate;
        return realMailbox().queue(email);
      },
    });
    try {
      const poll = env.environment.identity.ownerNotices.relayOnce();
      await entered;
      const handOver = env.environment.identity.ownerNotices.handOver(key);
      setTimeout(release, 200);
      const emailed = await handOver;
      expect(await emailsOf(env, tenant.organizationId)).toEqual(recipients);
      expect(emailed).toBe(recipients.length);
      expect([...(await poll).keys()]).toEqual([key]);
    } finally {
      release();
      useMailbox(realMailbox());
    }
    expect((await env.environment.identity.ownerNotices.relayOnce()).size).toBe(0);
    expect(await emailsOf(env, tenant.organizationId)).toEqual(recipients);
  });

  it('a relay that dies after queueing hands over again, and the outbox still holds one e-mail per recipient', async () => {
    const { tenant, token, recipients } = await leakyOrganization();
    let crashes = 1;
    useMailbox({
      queue: async (email: OwnerEmail) => {
        const queued = await realMailbox().queue(email);
        if (crashes-- > 0) throw new Error('process killed after queueing');
        return queued;
      },
    });
    try {
      expect((await report(env.baseUrl, token)).body).toEqual([expect.objectContaining({ label: 'true_positive' })]);
      expect(await emailsOf(env, tenant.organizationId)).toEqual(recipients);
      // Not recorded as handed over: the next pass queues it again, which adds nothing.
      expect((await env.environment.identity.ownerNotices.relayOnce()).size).toBe(1);
    } finally {
      useMailbox(realMailbox());
    }
    expect(await emailsOf(env, tenant.organizationId)).toEqual(recipients);
    expect((await env.environment.identity.ownerNotices.relayOnce()).size).toBe(0);
  });
});

describe('a process killed right after the revocation commits', () => {
  let prepared: PreparedServer;
  let setup: ServerSetup;
  let token: string;
  let organizationId: string;
  let recipients: string[];

  beforeAll(async () => {
    prepared = await prepareServer('leak-kill');
    setup = prepared.setup;
    // The organization, its owner and admin and the token, made in-process on the production database.
    const environment = await startEnvironment({
      name: 'production',
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      databaseUrl: setup.productionUrl,
      secret: TEST_SECRET,
      clock: systemClock,
      logger: createLogger('silent'),
    });
    const admin = new IdentityAdmin(environment.identity.orm, environment.identity.services, systemClock, TEST_SECRET);
    await admin.createUser('leak-owner@example.com', 'correct horse battery');
    await admin.createUser('leak-admin@example.com', 'correct horse battery');
    const organization = await admin.createOrganization(
      'leak-owner@example.com',
      'Leak Co',
      `leak-${randomBytes(3).toString('hex')}`,
    );
    await admin.addMember(organization.id, 'leak-admin@example.com', MemberRole.ADMIN);
    organizationId = organization.id;
    recipients = ['leak-admin@example.com', 'leak-owner@example.com'];
    token = await admin.createOrganizationAccessToken(organization.id, ['organizations:read']);
    await environment.close();
  });

  afterAll(async () => {
    await prepared?.remove();
  });

  const outbox = () =>
    query<{ to_address: string }>(
      setup.productionUrl,
      `select to_address from billing.outgoing_emails where kind = 'leaked_token_revoked' and organization_id = $1
        order by to_address`,
      [organizationId],
    ).then(rows => rows.map(r => r.to_address));

  it('after restart its relay e-mails each owner and admin once', async () => {
    const base = `http://127.0.0.1:${setup.productionPort}`;
    const env = { GITHUB_SECRET_SCANNING_KEYS: GITHUB_KEYS };
    const crashing = startServer(setup, { ...env, FAULT_INJECTION_EXIT_AT: LEAK_NOTICE_HANDOVER_FAULT });
    await within(crashing.ready, 60_000, 'the first start', crashing);
    await expect(within(report(base, token), 60_000, 'the report', crashing)).rejects.toThrow(/fetch failed/);
    expect(await within(crashing.exited, 30_000, 'the exit at the fault point', crashing)).toBe(86);

    // Revoked and committed, the e-mail owed but not queued.
    const revoked = await query<{ deleted: boolean }>(
      setup.productionUrl,
      'select deleted_at is not null as deleted from identity.organization_access_tokens where organization_id = $1',
      [organizationId],
    );
    expect(revoked).toEqual([{ deleted: true }]);
    const pending = `select key, emailed_at is not null as emailed from identity.owner_notices`;
    expect(await query(setup.productionUrl, pending)).toEqual([
      { key: expect.stringMatching(/^leaked-token:organization_access_token:/), emailed: false },
    ]);
    expect(await outbox()).toEqual([]);

    const restarted = startServer(setup, env);
    await within(restarted.ready, 60_000, 'the restart', restarted);
    const deadline = Date.now() + 60_000;
    while ((await outbox()).length < recipients.length && Date.now() < deadline)
      await new Promise(r => setTimeout(r, 250));
    expect(await outbox()).toEqual(recipients);
    expect(await query(setup.productionUrl, pending)).toEqual([expect.objectContaining({ emailed: true })]);
    // Reported again: already revoked, nothing more to tell.
    expect((await report(base, token)).body).toEqual([expect.objectContaining({ label: 'false_positive' })]);
    expect(await outbox()).toEqual(recipients);
    expect(await stopServer(restarted)).toBe(0);
  });
});
