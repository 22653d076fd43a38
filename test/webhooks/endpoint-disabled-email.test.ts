import { randomUUID } from 'node:crypto';
import { createLogger } from '../../kit/logger.js';
import type { OwnerEmail, OwnerMailbox } from '../../kit/email/owner-mailbox.js';
import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { NotificationRelay } from '../../subgraphs/webhooks/notifications/notification-relay.js';
import {
  createTenant,
  type RunningEnvironment,
  startTestStack,
  type Tenant,
  type TestStack,
} from '../support/stack.js';

/**
 * The e-mail to the owners of a disabled webhook endpoint is queued once per recipient even when the
 * process handing it over dies between queueing it in billing's outbox and recording that it did: the
 * notification row (written with the disable) stays un-e-mailed, is handed over again, and the outbox,
 * idempotent by the notification's key, adds nothing. The disable itself through real deliveries is
 * in webhooks.e2e.test.ts.
 */
let stack: TestStack;
let sandbox: RunningEnvironment;
let tenant: Tenant;
let admin: string;

beforeAll(async () => {
  stack = await startTestStack('endpoint_disabled_email');
  sandbox = stack.sandbox;
  tenant = await createTenant(sandbox);
  admin = `admin-${randomUUID()}@example.com`;
  await sandbox.admin.createUser(admin, 'correct horse battery');
  await sandbox.admin.addMember(tenant.organizationId, admin, MemberRole.ADMIN);
  const member = `member-${randomUUID()}@example.com`;
  await sandbox.admin.createUser(member, 'correct horse battery');
  await sandbox.admin.addMember(tenant.organizationId, member, MemberRole.MEMBER);
}, 120_000);
afterAll(() => stack?.close(), 60_000);

const sql = <T>(env: RunningEnvironment, query: string, params: unknown[] = []) =>
  env.environment.webhooks.orm.em.fork().execute<T[]>(query, params);

/** A disabled endpoint's notification as the delivery queue writes it. */
async function disabledEndpoint(url: string): Promise<{ endpointId: string; notificationId: string }> {
  const endpointId = randomUUID();
  const notificationId = randomUUID();
  await sql(
    sandbox,
    `insert into webhooks.endpoints (id, organization_id, url, format, secret, events, enabled, created_at)
     values (?, ?, ?, 'raw', 'whsec_test', '{customer.created}', false, now())`,
    [endpointId, tenant.organizationId, url],
  );
  await sql(
    sandbox,
    `insert into webhooks.notifications (id, organization_id, endpoint_id, kind, message, created_at)
     values (?, ?, ?, 'endpoint_disabled', 'Webhook endpoint ${url} was disabled: its last 10 events all failed.', now())`,
    [notificationId, tenant.organizationId, endpointId],
  );
  return { endpointId, notificationId };
}

const emails = (endpointId: string) =>
  sandbox.environment.billing.orm.em
    .fork()
    .execute<{ to_address: string; subject: string; text_body: string; status: string; organization_id: string }[]>(
      `select to_address, subject, text_body, status, organization_id from billing.outgoing_emails
        where kind = 'webhook_endpoint_disabled' and text_body like ? order by to_address`,
      [`%${endpointId}%`],
    );

/** Queues in the real outbox, then dies before the relay records the hand-over. */
class CrashAfterQueue implements OwnerMailbox {
  constructor(private readonly inner: OwnerMailbox) {}
  async queue(email: OwnerEmail): Promise<{ recipients: number }> {
    await this.inner.queue(email);
    throw new Error('process killed after queueing');
  }
}

it('a relay killed after queueing hands over again and the outbox still holds one e-mail per owner and admin', async () => {
  // The stack's own relay would hand it over first; this one runs against the same rows on purpose.
  await sandbox.environment.webhooks.notifications?.stop();
  const { endpointId, notificationId } = await disabledEndpoint('https://hooks.example.com/dead');
  const logger = createLogger('silent');
  const mailbox = sandbox.environment.billing.ownerMailbox;

  await expect(
    new NotificationRelay(sandbox.environment.webhooks.orm, new CrashAfterQueue(mailbox), logger).relayOnce(),
  ).rejects.toThrow('process killed after queueing');
  const [pending] = await sql<{ emailed_at: Date | null }>(
    sandbox,
    'select emailed_at from webhooks.notifications where id = ?',
    [notificationId],
  );
  expect(pending.emailed_at).toBeNull();
  expect((await emails(endpointId)).map(e => e.to_address)).toEqual([admin, tenant.email].sort());

  const relay = new NotificationRelay(sandbox.environment.webhooks.orm, mailbox, logger);
  expect(await relay.relayOnce()).toBe(1);
  expect(await relay.relayOnce()).toBe(0);

  const sent = await emails(endpointId);
  // The owner and the admin, once each; the plain member is not told.
  expect(sent.map(e => e.to_address)).toEqual([admin, tenant.email].sort());
  for (const email of sent) {
    expect(email.organization_id).toBe(tenant.organizationId);
    expect(email.subject).toBe('Webhook endpoint disabled: https://hooks.example.com/dead');
    expect(email.text_body).toContain('its last 10 events all failed');
    expect(email.text_body).toContain(`PATCH /v1/webhooks/endpoints/${endpointId}   {"enabled": true}`);
    expect(email.text_body).toContain('POST /v1/webhooks/events/redeliver');
  }
  const [done] = await sql<{ emailed_at: Date | null }>(
    sandbox,
    'select emailed_at from webhooks.notifications where id = ?',
    [notificationId],
  );
  expect(done.emailed_at).not.toBeNull();
});
